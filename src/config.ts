/**
 * Every setting of the service, read from the environment once at start and
 * validated; nothing else in the code reads process.env. A bad value stops
 * the start with a message naming the variable, so an operator never runs a
 * service that silently ignored what they asked for.
 */
import os from 'node:os';
import path from 'node:path';

export interface Config {
  host: string;
  port: number;
  /** Pyodide workers (HTML, LaTeX, check). */
  workers: number;
  /** pdfTeX workers: PDF jobs that may run at once. */
  texWorkers: number;
  /** Jobs that may wait for a worker, per engine; beyond this: 503. */
  queueLimit: number;
  renderTimeoutMs: number;
  pdfTimeoutMs: number;
  /** A PDF job whose pdfTeX prints nothing for this long is ended (422 render_timeout); 0: only the deadline. */
  pdfStallMs: number;
  /** Bytes of HTML or LaTeX one render may produce; also bounds what substitutions may expand to. */
  maxOutputBytes: number;
  /** Levels of indentation (block quotes, lists, directive content) a document may nest. */
  maxNestingDepth: number;
  /** A Pyodide worker whose wasm heap is past this after a job is replaced; 0: never. */
  workerHeapBudgetBytes: number;
  maxBodyBytes: number;
  uriMaxBytes: number;
  uriTimeoutMs: number;
  uriMaxRedirects: number;
  allowPrivateUri: boolean;
  /** Link-local and cloud metadata addresses for `uri`; apart from allowPrivateUri, which never opens them. */
  allowLinkLocalUri: boolean;
  /** Bytes of one image of a PDF document (fetched, or decoded from a data: URI). */
  imageMaxBytes: number;
  /** Images of one PDF document that are fetched; the rest become placeholders. */
  imageMaxCount: number;
  /** Bytes of all the images of one PDF document together; beyond: placeholders. */
  imageDocumentBytes: number;
  /** Image fetches of one document that may run at once. */
  imageFetchConcurrency: number;
  /** Time for all the images of one document together; what is not there by then becomes a placeholder. */
  imageTimeBudgetMs: number;
  /** Pixels (width × height, from the header and of every frame) an image may have; more: placeholder, nothing decoded. */
  imageMaxPixels: number;
  /** The image converter is replaced after a job that left its memory (JS heap and WebAssembly) past this; 0: never. */
  imageWorkerBudgetBytes: number;
  /** Ceiling of resvg's WebAssembly memory: an SVG needing more is a placeholder. */
  svgMaxMemoryBytes: number;
  /** Filter primitives an SVG may run (each filtered group counts its filter's). */
  svgMaxFilterPrimitives: number;
  /** Filtered groups an SVG may nest inside one another. */
  svgMaxFilterNesting: number;
  /** A filter region may cover this many times the pixels of the drawn SVG. */
  svgMaxFilterRegion: number;
  /** Seconds a fetched image is reused (memory and Redis) before it is fetched again. */
  imageCacheTtlSeconds: number;
  /** Bound on the bytes of fetched images kept in this instance's memory; 0: none kept. */
  imageCacheBytes: number;
  dataDir: string;
  /** Where LaTeX formats for non-default class/style combinations are made and kept. */
  texFormatDir: string;
  /** Bound on the bytes of texFormatDir; 0: no formats are made at run time. */
  texFormatBytes: number;
  /** Format dumps that may wait for the one dump thread; a format asked for beyond them is asked for again on its next use. */
  texFormatQueue: number;
  /** ms a pre-started LuaHBTeX instance (one per TeX worker, after its first LuaHBTeX job) waits for a job before it is dropped; 0: none are made. */
  luaSpareIdleMs: number;
  cacheBytes: number;
  /** Redis for tokens and the shared render cache; undefined: folder store + memory cache only. */
  redisUrl: string | undefined;
  /** Redis for the shared render cache when it should live apart from the tokens; defaults to redisUrl. */
  redisCacheUrl: string | undefined;
  /** Bound on connecting to Redis and on each Redis command, so an outage answers fast. */
  redisTimeoutMs: number;
  /** Seconds a token is kept after it was last created or used; 0: forever. */
  tokenTtlSeconds: number;
  /** Seconds a rendering stays in the shared (Redis) cache. */
  cacheTtlSeconds: number;
  /** Renderings larger than this are not put in the shared cache. */
  cacheMaxEntryBytes: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Access-Control-Allow-Origin: `*`, a list of origins, or none ([]). */
  corsOrigins: '*' | readonly string[];
  /** On SIGTERM, how long requests in flight may take before connections are cut. */
  shutdownGraceMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false' || raw === 'no') return false;
  if (raw === '1' || raw === 'true' || raw === 'yes') return true;
  throw new ConfigError(`${name} must be 1/true/yes or 0/false/no, got ${JSON.stringify(env[name])}`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as T;
}

function origins(env: Env, name: string): '*' | readonly string[] {
  const raw = env[name]?.trim();
  if (raw === undefined) return '*';
  if (raw === '*') return '*';
  if (raw === '' || raw === 'none') return Object.freeze([]);
  const list = raw.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of list) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    // Browsers send and compare the exact serialised origin, so anything
    // else (a path, a trailing slash) would silently never match.
    if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) {
      throw new ConfigError(`${name} must be *, none, or a comma-separated list of origins like https://example.org, got ${JSON.stringify(origin)}`);
    }
  }
  return Object.freeze(list);
}

function redisUrl(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a redis:// or rediss:// URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(`${name} must be a redis:// or rediss:// URL, got ${JSON.stringify(url.protocol)}`);
  }
  return raw;
}

export const MiB = 1024 * 1024;

/**
 * The language server's own bounds (src/lsp). They are not read from the
 * environment: they bound what a client can make `rst2 lsp` wait for or
 * hold, and no client needs them changed.
 */
export const LSP_LIMITS = Object.freeze({
  /**
   * A message's header block, "Content-Length: N" and perhaps a
   * Content-Type, is under 100 bytes from every client; anything near this
   * is not a header.
   */
  maxHeaderBytes: 4096,
  /**
   * A message's body. A didOpen carries the whole document as JSON: a
   * document this large could not be checked within RST2_RENDER_TIMEOUT_MS
   * anyway, while a few of them would already be hundreds of MB of memory.
   */
  maxMessageBytes: 64 * MiB,
  /**
   * A message begun and not finished within this of its last byte: its
   * Content-Length is longer than what the client sent, which then waits for
   * an answer that could never come. vscode-jsonrpc reports a partial message
   * after as long; a client writes a message in one go, so a live one never
   * pauses that long in the middle of it.
   */
  stallMs: 10_000,
  /** The first wait before a check the engine refused (busy, queue full) is tried again; it doubles each time. */
  retryFirstMs: 100,
  retryMaxMs: 2_000,
  /** Before exiting on a broken stream, the parse error answer may take this long to be written. */
  exitFlushMs: 1_000,
});

export function loadConfig(env: Env = process.env): Config {
  const cpus = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const workers = integer(env, 'RST2_WORKERS', Math.max(1, cpus), 1, 64);
  return Object.freeze({
    host: env.HOST?.trim() || '0.0.0.0',
    port: integer(env, 'PORT', 8080, 0, 65535),
    workers,
    texWorkers: integer(env, 'RST2_TEX_WORKERS', Math.max(1, Math.min(workers, cpus)), 1, 64),
    queueLimit: integer(env, 'RST2_QUEUE_LIMIT', 64, 0, 100_000),
    renderTimeoutMs: integer(env, 'RST2_RENDER_TIMEOUT_MS', 10_000, 100, 600_000),
    pdfTimeoutMs: integer(env, 'RST2_PDF_TIMEOUT_MS', 30_000, 100, 600_000),
    pdfStallMs: integer(env, 'RST2_PDF_STALL_MS', 5_000, 0, 600_000),
    maxBodyBytes: integer(env, 'RST2_MAX_BODY_BYTES', 2 * MiB, 1024, 1024 * MiB),
    // docutils' specification (117 KB) renders to 0.2 MB of HTML; 2 MB of
    // dense markup (the largest body allowed) to 16 MB. Twice that is left
    // to documents built to blow up, such as 37 KB of substitutions that
    // expand to 63 MB.
    maxOutputBytes: integer(env, 'RST2_MAX_OUTPUT_BYTES', 32 * MiB, 1024, 1024 * MiB),
    // 11 is the deepest of 2,795 real rst files measured (Python's and
    // Debian's docs); the parser's memory grows with depth times size.
    maxNestingDepth: integer(env, 'RST2_MAX_NESTING_DEPTH', 32, 1, 100_000),
    // A warm worker's heap is 36 MiB and stays there for docutils'
    // specification; a 100 KB document takes it to 52, 2 MB of dense markup
    // to several hundred. Each worker may keep up to the budget while idle,
    // so with two workers 160 keeps an instance under 900 MB of RSS
    // (bench/memory.ts).
    workerHeapBudgetBytes: integer(env, 'RST2_WORKER_HEAP_BUDGET_BYTES', 160 * MiB, 0, 4096 * MiB),
    // The reference limits remote documents to "250K"; we read it as
    // 250 KiB (250 × 1024 = 256,000 bytes), the larger reading.
    uriMaxBytes: integer(env, 'RST2_URI_MAX_BYTES', 256_000, 1, 100 * MiB),
    uriTimeoutMs: integer(env, 'RST2_URI_TIMEOUT_MS', 10_000, 100, 600_000),
    uriMaxRedirects: integer(env, 'RST2_URI_MAX_REDIRECTS', 5, 0, 20),
    allowPrivateUri: flag(env, 'RST2_ALLOW_PRIVATE_URI'),
    allowLinkLocalUri: flag(env, 'RST2_ALLOW_LINK_LOCAL_URI'),
    // 64 images of 5 MiB would already be 320 MiB of one document; real
    // READMEs have a few badges (a few KB each) and screenshots (< 1 MiB).
    imageMaxBytes: integer(env, 'RST2_IMAGE_MAX_BYTES', 5 * MiB, 1, 100 * MiB),
    imageMaxCount: integer(env, 'RST2_IMAGE_MAX_COUNT', 64, 0, 10_000),
    // Each document's images are held until pdfTeX is done with them, and
    // documents waiting for pdfTeX are not otherwise bounded in memory:
    // 4 documents of 64 images of 5 MiB each took the service to 3.1 GB.
    imageDocumentBytes: integer(env, 'RST2_IMAGE_DOCUMENT_BYTES', 16 * MiB, 1, 1024 * MiB),
    imageFetchConcurrency: integer(env, 'RST2_IMAGE_FETCH_CONCURRENCY', 4, 1, 64),
    imageTimeBudgetMs: integer(env, 'RST2_IMAGE_TIME_BUDGET_MS', 10_000, 100, 600_000),
    // pdfTeX decodes a PNG that it cannot copy as it is (alpha, 16 bits)
    // whole into its 128 MiB memory: 12 MP (4000 × 3000) of RGBA is 48 MB.
    imageMaxPixels: integer(env, 'RST2_IMAGE_MAX_PIXELS', 12_000_000, 1, 1_000_000_000),
    // An idle converter keeps what its largest job grew (WebAssembly never
    // shrinks): a badge leaves it near 22 MB, a plain 4-megapixel SVG near
    // 80, the same with a blur near 150 (so it is then replaced).
    imageWorkerBudgetBytes: integer(env, 'RST2_IMAGE_WORKER_BUDGET_BYTES', 128 * MiB, 0, 4096 * MiB),
    // resvg would otherwise grow to wasm32's 4 GiB (20 nested blurred
    // turbulences: 620 MB to 4.5 GB); the filter limits below keep real
    // drawings inside it: a full-canvas drop shadow nested once in a
    // 2000 × 2000 SVG takes about 250 MB.
    svgMaxMemoryBytes: integer(env, 'RST2_SVG_MAX_MEMORY_BYTES', 384 * MiB, 32 * MiB, 4096 * MiB),
    svgMaxFilterPrimitives: integer(env, 'RST2_SVG_MAX_FILTER_PRIMITIVES', 50, 0, 100_000),
    svgMaxFilterNesting: integer(env, 'RST2_SVG_MAX_FILTER_NESTING', 2, 0, 1000),
    // A drop shadow's default region (-25 % to 125 % of the object) over a
    // full-canvas object is 2.25 times the canvas.
    svgMaxFilterRegion: integer(env, 'RST2_SVG_MAX_FILTER_REGION', 3, 1, 1000),
    imageCacheTtlSeconds: integer(env, 'RST2_IMAGE_CACHE_TTL', 3600, 1, 365 * 86_400),
    imageCacheBytes: integer(env, 'RST2_IMAGE_CACHE_BYTES', 32 * MiB, 0, 64 * 1024 * MiB),
    dataDir: path.resolve(env.RST2_DATA_DIR?.trim() || 'data'),
    texFormatDir: path.resolve(env.RST2_TEX_FORMAT_DIR?.trim() || path.join(env.RST2_CACHE_DIR?.trim() || path.join(os.homedir(), '.cache', 'rst2'), 'tex-formats')),
    // About 19 MB a format (kept uncompressed): room for every class and style (18).
    texFormatBytes: integer(env, 'RST2_TEX_FORMAT_BYTES', 512 * MiB, 0, 64 * 1024 * MiB),
    // Script sets make thousands of preambles possible, each a second's dump
    // and 19 MB written: documents must not be able to queue work without bound.
    texFormatQueue: integer(env, 'RST2_TEX_FORMAT_QUEUE', 4, 0, 1000),
    // A waiting instance holds LuaHBTeX's 256 MiB memory; a minute covers a
    // burst of documents in one script set without keeping it all day.
    luaSpareIdleMs: integer(env, 'RST2_LUATEX_SPARE_IDLE_MS', 60_000, 0, 86_400_000),
    cacheBytes: integer(env, 'RST2_CACHE_BYTES', 64 * MiB, 0, 64 * 1024 * MiB),
    redisUrl: redisUrl(env, 'REDIS_URL'),
    redisCacheUrl: redisUrl(env, 'RST2_REDIS_CACHE_URL') ?? redisUrl(env, 'REDIS_URL'),
    redisTimeoutMs: integer(env, 'RST2_REDIS_TIMEOUT_MS', 1000, 50, 60_000),
    tokenTtlSeconds: integer(env, 'RST2_TOKEN_TTL', 0, 0, 100 * 365 * 86_400),
    cacheTtlSeconds: integer(env, 'RST2_CACHE_TTL', 86_400, 1, 365 * 86_400),
    cacheMaxEntryBytes: integer(env, 'RST2_CACHE_MAX_ENTRY_BYTES', 4 * MiB, 1, 512 * MiB),
    logLevel: oneOf(env, 'RST2_LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
    corsOrigins: origins(env, 'RST2_CORS_ORIGIN'),
    shutdownGraceMs: integer(env, 'RST2_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
  });
}
