/**
 * Prometheus metrics for one instance (GET /metrics). Each server has its own
 * registry rather than prom-client's global one, so several servers in one
 * process (tests, benchmarks) never share or double-register series.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

import type { Rendering, RenderCache } from './cache/render-cache.js';
import type { TypesetStats } from './engines/tex/pdf-engine.js';
import type { PoolStats } from './engines/worker-pool.js';

export interface EngineSource {
  name: 'python' | 'tex' | 'image';
  /** Undefined when the engine is not installed (PDF without pdfTeX). */
  stats(): PoolStats | undefined;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly duration: Histogram<'operation'>;
  private readonly cacheLookups: Counter<'result'>;

  constructor(engines: readonly EngineSource[], typeset: () => TypesetStats | undefined = () => undefined) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'rst2_' });
    this.requests = new Counter({
      name: 'rst2_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'rst2_http_request_duration_seconds',
      help: 'Time from request to response, by operation (html, pdf, check, token, list, health, ...).',
      labelNames: ['operation'],
      // From a cache hit (~1 ms) to a long PDF (tens of seconds).
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'rst2_render_cache_lookups_total',
      help: 'Render cache lookups, by result (hit or miss).',
      labelNames: ['result'],
      registers,
    });

    // Pool figures are read when Prometheus scrapes, so they are never stale
    // and cost nothing between scrapes.
    const fromPools = (name: string, help: string, labelNames: string[], read: (g: Gauge<string>) => void) =>
      new Gauge({ name, help, labelNames, registers, collect() { this.reset(); read(this); } });
    fromPools('rst2_engine_queue_depth', 'Jobs waiting for a worker, by engine.', ['engine'], (g) => {
      for (const e of engines) { const s = e.stats(); if (s) g.set({ engine: e.name }, s.queued); }
    });
    fromPools('rst2_engine_workers', 'Workers by engine and state (busy, idle, starting).', ['engine', 'state'], (g) => {
      for (const e of engines) {
        const s = e.stats();
        if (!s) continue;
        g.set({ engine: e.name, state: 'busy' }, s.busy);
        // 'ready' counts only workers waiting for a job: busy ones are apart.
        g.set({ engine: e.name, state: 'idle' }, s.ready);
        g.set({ engine: e.name, state: 'starting' }, s.starting);
      }
    });
    // Fed from the pool's own monotonic count at scrape time.
    new Counter({
      name: 'rst2_engine_worker_restarts_total',
      help: 'Workers replaced after a crash, a deadline or a failed start, by engine.',
      labelNames: ['engine'],
      registers,
      collect() {
        this.reset();
        for (const e of engines) { const s = e.stats(); if (s) this.inc({ engine: e.name }, s.restarts); }
      },
    });
    new Counter({
      name: 'rst2_engine_worker_recycled_total',
      help: 'Workers replaced because their heap passed their budget after a job (RST2_WORKER_HEAP_BUDGET_BYTES, RST2_IMAGE_WORKER_BUDGET_BYTES; not failures), by engine.',
      labelNames: ['engine'],
      registers,
      collect() {
        this.reset();
        for (const e of engines) { const s = e.stats(); if (s) this.inc({ engine: e.name }, s.recycled); }
      },
    });
    const fromTypeset = (name: string, help: string, labelNames: string[], read: (c: Counter<string>, s: TypesetStats) => void) =>
      new Counter({ name, help, labelNames, registers, collect() { this.reset(); const s = typeset(); if (s) read(this, s); } });
    fromTypeset('rst2_tex_jobs_total', 'PDF jobs typeset, by how pdfTeX started: from a preamble format or the plain LaTeX format.', ['start'], (c, s) => {
      c.inc({ start: 'format' }, s.withFormat);
      c.inc({ start: 'plain' }, s.plain);
    });
    fromTypeset('rst2_tex_runs_total', 'pdfTeX runs of the PDF jobs typeset (a job runs again only when it reads back its .aux or .toc).', [], (c, s) => c.inc(s.runs));
    fromTypeset('rst2_tex_prestarted_total', 'LuaHBTeX jobs whose first run was an instance pre-started with their preamble.', [], (c, s) => c.inc(s.prestarted));
    fromTypeset('rst2_tex_formats_made_total', 'Preamble formats made at run time (on the first use of a class and style).', [], (c, s) => c.inc(s.formatsMade));
  }

  observeRequest(route: string, method: string, status: number, operation: string, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.duration.observe({ operation }, seconds);
  }

  /** The same cache, counting hits and misses on the way through. */
  countingCache(cache: RenderCache): RenderCache {
    return {
      get: async (key: string): Promise<Rendering | undefined> => {
        const found = await cache.get(key);
        this.cacheLookups.inc({ result: found ? 'hit' : 'miss' });
        return found;
      },
      set: (key: string, value: Rendering) => cache.set(key, value),
    };
  }

  async text(): Promise<{ body: string; type: string }> {
    return { body: await this.registry.metrics(), type: this.registry.contentType };
  }
}
