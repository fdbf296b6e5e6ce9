/**
 * Builds the service from its parts (engines, store, cache, routes) and
 * starts or stops it; used by the CLI and by the tests alike.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import Koa from 'koa';

import type { Config } from './config.js';
import { createPdfEngine, createPythonEngine } from './engines/create.js';
import type { PythonEngine } from './engines/python/engine.js';
import { snapshotKey } from './engines/python/snapshot.js';
import { editorPage } from './http/editor.js';
import type { PdfEngine } from './engines/tex/pdf-engine.js';
import { ServiceError } from './http/errors.js';
import { cors } from './http/cors.js';
import { errorMiddleware } from './http/error-middleware.js';
import { observe } from './http/observe.js';
import { buildRouter } from './http/routes.js';
import { closeUnreadBodies } from './http/unread-body.js';
import { createLogger, type Logger } from './log.js';
import { Metrics } from './metrics.js';
import { paths, projectRoot } from './paths.js';
import { Renderer } from './renderer.js';
import { createStorage } from './store/create.js';
import { loadCatalogue } from './styles.js';

export interface RunningServer {
  url: string;
  port: number;
  python: PythonEngine;
  pdf: PdfEngine;
  /** Graceful: stops accepting, waits up to graceMs for requests in flight. */
  close(graceMs?: number): Promise<void>;
}

const HEALTH_DOCUMENT = 'Health\n======\n\nrst2 is *rendering*.\n';
const HEALTH_LATEX = '\\documentclass{article}\\begin{document}rst2 health\\end{document}\n';
const HEALTH_TIMEOUT_MS = 10_000;
const READY_STORE_TIMEOUT_MS = 2_000;

function manifestKey(file: string): string {
  try {
    return String((JSON.parse(fs.readFileSync(file, 'utf8')) as { key?: string }).key ?? 'none');
  } catch {
    return 'none';
  }
}

/** Our Python code changes what a page contains (e.g. what is escaped): its hash keeps older renderings out of the cache. */
function pythonKey(): string {
  try {
    return snapshotKey({ bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles });
  } catch {
    return 'none';
  }
}

function engineVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  return [pkg.version, manifestKey(path.join(projectRoot, 'wasm/python/manifest.json')), pythonKey(), manifestKey(path.join(paths.texDir, 'manifest.json'))].join('/');
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const catalogue = loadCatalogue(paths.styles);
  const storage = await createStorage(config, log);
  const { store } = storage;
  log.info('storage', storage.describe);
  const python = createPythonEngine(config, log);
  const pdf = await createPdfEngine(config, log);
  const started = performance.now();
  // A start that fails must not leave worker threads or a Redis client
  // behind: they would keep the process alive with nothing serving.
  const abandon = async (err: unknown): Promise<never> => {
    await Promise.allSettled([python.close(), pdf.close(), storage.close()]);
    throw err;
  };
  await Promise.all([python.start(), pdf.start()]).catch(abandon);
  log.info('engines warm', { ms: Math.round(performance.now() - started), workers: config.workers, texWorkers: config.texWorkers });

  const metrics = new Metrics([
    { name: 'python', stats: () => python.stats() },
    { name: 'tex', stats: () => pdf.stats() },
  ], () => pdf.typesetStats());
  const cache = metrics.countingCache(storage.cache);
  const renderer = new Renderer({ python, pdf, cache, engineVersion: engineVersion() });
  let stopping = false;
  // Liveness: can this process render? The token store is left to /ready:
  // restarting the process would not bring an unreachable Redis back.
  const health = async () => {
    try {
      const out = await within(python.renderHtml(HEALTH_DOCUMENT, 'default'), HEALTH_TIMEOUT_MS, 'the Python engine');
      if (!out.html.includes('<em>rendering</em>')) throw new Error('the health document rendered wrongly');
      if (pdf.available) {
        const made = await within(pdf.compile(HEALTH_LATEX), HEALTH_TIMEOUT_MS, 'the TeX engine');
        if (made.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('the health PDF is not a PDF');
      }
    } catch (err) {
      throw new ServiceError(503, 'unhealthy', `The service cannot render right now: ${err instanceof ServiceError ? err.code : err instanceof Error ? err.message : 'unknown'}.`, {
        headers: { 'Retry-After': '5' },
        cause: err,
      });
    }
    return { status: 'ok', python: python.stats(), pdf: pdf.available ? pdf.stats() : { available: false } };
  };

  // Readiness is cheap (no rendering): a load balancer asks it often, and it
  // turns false as soon as shutdown starts so traffic drains elsewhere.
  const ready = async () => {
    const problems: string[] = [];
    if (stopping) problems.push('shutting down');
    if (python.stats().ready === 0) problems.push('no Python worker is ready');
    const tex = pdf.stats();
    if (pdf.available && (!tex || tex.ready === 0)) problems.push('no TeX worker is ready');
    try {
      await within(store.ping(), READY_STORE_TIMEOUT_MS, 'the token store');
    } catch (err) {
      problems.push(`the token store is unreachable (${err instanceof Error ? err.message : 'unknown'})`);
    }
    if (problems.length > 0) {
      throw new ServiceError(503, 'not_ready', `Not ready: ${problems.join('; ')}.`, { headers: { 'Retry-After': '2' }, details: { problems } });
    }
    return { status: 'ready' };
  };

  const app = new Koa();
  const router = buildRouter({
    renderer,
    catalogue,
    store,
    maxBodyBytes: config.maxBodyBytes,
    fetchPolicy: {
      maxBytes: config.uriMaxBytes,
      timeoutMs: config.uriTimeoutMs,
      maxRedirects: config.uriMaxRedirects,
      allowPrivate: config.allowPrivateUri,
      allowLinkLocal: config.allowLinkLocalUri,
    },
    health,
    ready,
    metrics: () => metrics.text(),
  });
  app.use(closeUnreadBodies());
  app.use(observe(log, metrics));
  app.use(errorMiddleware(log));
  app.use(cors(config.corsOrigins));
  app.use(editorPage(paths.web, log));
  app.use(router.routes());
  app.use(router.allowedMethods());

  const server = http.createServer(app.callback());
  // Longer than the idle timeouts of common load balancers and HTTP clients,
  // so a client never sends on a connection the server is just closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  }).catch(abandon);
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info('listening', { url });

  return {
    url,
    port,
    python,
    pdf,
    async close(graceMs = config.shutdownGraceMs) {
      stopping = true;
      // Stop accepting, let requests in flight finish (up to graceMs), then
      // cut what is left; engines close last so in-flight renders complete.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections turn idle as their last response goes out.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearInterval(sweep);
      clearTimeout(timer);
      await Promise.all([python.close(), pdf.close(), storage.close()]);
    },
  };
}
