/**
 * Builds the service from its parts (engines, store, cache, routes) and
 * starts or stops it; used by the CLI and by the tests alike.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import Koa from 'koa';

import type { Config } from './config.js';
import { fetchPolicyOf } from './documents/fetch-uri.js';
import { createPdfEngine, createPythonEngine } from './engines/create.js';
import type { PythonEngine } from './engines/python/engine.js';
import { docsPages } from './http/docs.js';
import { editorPage } from './http/editor.js';
import type { PdfEngine } from './engines/tex/pdf-engine.js';
import { cors } from './http/cors.js';
import { errorMiddleware } from './http/error-middleware.js';
import { observe } from './http/observe.js';
import { buildRouter } from './http/routes.js';
import { closeUnreadBodies } from './http/unread-body.js';
import { createLogger, type Logger } from './log.js';
import { Metrics } from './metrics.js';
import { paths } from './paths.js';
import { healthProbe, readinessProbe } from './probes.js';
import { ConvertPool } from './images/convert-pool.js';
import { imageResolverFor } from './images/resolve-images.js';
import { Renderer } from './renderer.js';
import { createStorage } from './storage.js';
import { loadCatalogue } from './styles.js';
import { readVersions } from './versions.js';

export interface RunningServer {
  url: string;
  port: number;
  python: PythonEngine;
  pdf: PdfEngine;
  /** Graceful: stops accepting, waits up to graceMs for requests in flight. */
  close(graceMs?: number): Promise<void>;
}

export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const catalogue = loadCatalogue(paths.styles);
  const versions = readVersions();
  const storage = await createStorage(config, log);
  const { store } = storage;
  log.info('storage', storage.describe);
  const python = createPythonEngine(config, log);
  const pdf = await createPdfEngine(config, log);
  // Drawing an SVG is bounded like fetching it: by the document's image time budget.
  const converter = new ConvertPool({ timeoutMs: config.imageTimeBudgetMs, queueLimit: config.queueLimit, heapBudgetBytes: config.imageWorkerBudgetBytes, log });
  const started = performance.now();
  // A start that fails must not leave worker threads or a Redis client
  // behind: they would keep the process alive with nothing serving.
  const abandon = async (err: unknown): Promise<never> => {
    await Promise.allSettled([python.close(), pdf.close(), converter.close(), storage.close()]);
    throw err;
  };
  await Promise.all([python.start(), pdf.start(), converter.start()]).catch(abandon);
  log.info('engines warm', { ms: Math.round(performance.now() - started), workers: config.workers, texWorkers: config.texWorkers });

  const metrics = new Metrics([
    { name: 'python', stats: () => python.stats() },
    { name: 'tex', stats: () => pdf.stats() },
    { name: 'image', stats: () => converter.stats() },
  ], () => pdf.typesetStats());
  const cache = metrics.countingCache(storage.cache);
  const images = imageResolverFor(config, storage.images, (bytes, sniffed, options, budget) => converter.prepare(bytes, sniffed, options, budget));
  const renderer = new Renderer({ python, pdf, cache, images, renderKeySalt: versions.renderKeySalt, log });
  let stopping = false;
  const probes = { python, pdf, store, stopping: () => stopping, engines: versions.engines };
  const app = new Koa();
  const router = buildRouter({
    renderer,
    catalogue,
    store,
    maxBodyBytes: config.maxBodyBytes,
    fetchPolicy: fetchPolicyOf(config),
    version: versions.service,
    health: healthProbe(probes),
    ready: readinessProbe(probes),
    metrics: () => metrics.text(),
  });
  app.use(closeUnreadBodies());
  app.use(observe(log, metrics));
  app.use(errorMiddleware(log));
  app.use(cors(config.corsOrigins));
  app.use(editorPage(paths.web, log));
  app.use(docsPages(paths.docs, renderer, log));
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
  // Which runtime serves: the single binary carries its own Node, not the machine's.
  log.info('listening', { url, node: process.versions.node });

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
      await Promise.all([python.close(), pdf.close(), converter.close(), storage.close()]);
    },
  };
}
