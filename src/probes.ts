/**
 * The two questions an orchestrator asks: is this process alive (/health:
 * can it render?) and should it take traffic (/ready: cheap, renders
 * nothing). They answer differently on purpose; see each.
 */
import { Code, ServiceError } from './errors.js';
import type { PythonEngine } from './engines/python/engine.js';
import type { PdfEngine } from './engines/tex/pdf-engine.js';
import type { PoolStats } from './engines/worker-pool.js';
import type { TokenStore } from './store/token-store.js';
import type { EngineVersions } from './versions.js';

const HEALTH_DOCUMENT = 'Health\n======\n\nrst2 is *rendering*.\n';
const HEALTH_LATEX = '\\documentclass{article}\\begin{document}rst2 health\\end{document}\n';
const HEALTH_TIMEOUT_MS = 10_000;
const READY_STORE_TIMEOUT_MS = 2_000;

export interface ProbeDeps {
  python: PythonEngine;
  pdf: PdfEngine;
  store: TokenStore;
  /** True once shutdown has started. */
  stopping: () => boolean;
  /** What /health reports as the engines' versions (versions.ts). */
  engines: EngineVersions;
}

export interface HealthReport {
  status: 'ok';
  python: PoolStats;
  pdf: PoolStats | { available: false };
  versions: EngineVersions;
}

/** Rejects with an Error naming `what` when the promise has not settled within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Liveness: can this process render? The token store is left to /ready:
 * restarting the process would not bring an unreachable Redis back.
 */
export function healthProbe(deps: ProbeDeps): () => Promise<HealthReport> {
  const { python, pdf } = deps;
  return async () => {
    try {
      const out = await withTimeout(python.renderHtml(HEALTH_DOCUMENT, 'default'), HEALTH_TIMEOUT_MS, 'the Python engine');
      if (!out.html.includes('<em>rendering</em>')) throw new Error('the health document rendered wrongly');
      if (pdf.available) {
        const made = await withTimeout(pdf.compile(HEALTH_LATEX), HEALTH_TIMEOUT_MS, 'the TeX engine');
        if (made.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('the health PDF is not a PDF');
      }
    } catch (err) {
      throw new ServiceError(Code.unhealthy, `The service cannot render right now: ${err instanceof ServiceError ? err.code : err instanceof Error ? err.message : 'unknown'}.`, {
        cause: err,
      });
    }
    const tex = pdf.stats();
    return { status: 'ok', python: python.stats(), pdf: pdf.available && tex ? tex : { available: false }, versions: deps.engines };
  };
}

/**
 * Readiness is cheap (no rendering): a load balancer asks it often, and it
 * turns false as soon as shutdown starts so traffic drains elsewhere.
 */
export function readinessProbe(deps: ProbeDeps): () => Promise<{ status: 'ready' }> {
  const { python, pdf, store } = deps;
  return async () => {
    const problems: string[] = [];
    if (deps.stopping()) problems.push('shutting down');
    if (python.stats().ready === 0) problems.push('no Python worker is ready');
    const tex = pdf.stats();
    if (pdf.available && (!tex || tex.ready === 0)) problems.push('no TeX worker is ready');
    try {
      await withTimeout(store.ping(), READY_STORE_TIMEOUT_MS, 'the token store');
    } catch (err) {
      problems.push(`the token store is unreachable (${err instanceof Error ? err.message : 'unknown'})`);
    }
    if (problems.length > 0) throw new ServiceError(Code.not_ready, `Not ready: ${problems.join('; ')}.`, { details: { problems } });
    return { status: 'ready' };
  };
}
