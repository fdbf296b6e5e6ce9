/**
 * The images of one PDF document, as files for pdfTeX: each image the
 * LaTeX numbers (python/rst2/latex_images.py) is taken from its data: URI
 * or fetched through the guarded fetcher, recognised by its bytes,
 * converted where pdfTeX needs it, and named `rst2img-N.<ext>`. Whatever
 * fails becomes a problem, and the LaTeX shows a placeholder for it: an
 * image never fails the document. Bounded per document: at most
 * `maxCount` images, `concurrency` fetches at once, and one time budget
 * for all of them.
 */
import type { RenderCache } from '../cache/render-cache.js';
import type { Config } from '../config.js';
import { fetchBytes, fetchPolicyOf, type FetchPolicy } from '../documents/fetch-uri.js';
import { Code, ServiceError } from '../errors.js';
import { paths } from '../paths.js';
import { ImageCache } from './cache.js';
import { prepareImage, type ConvertOptions, type Prepared } from './convert.js';
import { ImageRefused, type ImageProblem } from './problems.js';
import { sniff, type Sniffed } from './sniff.js';
import { imageSource } from './sources.js';

export interface ImageLimits {
  maxBytes: number;
  maxCount: number;
  /** All the document's images together, as files for pdfTeX. */
  maxDocumentBytes: number;
  concurrency: number;
  timeBudgetMs: number;
  maxPixels: number;
  svg: ConvertOptions['svg'];
}

export interface ImageRef {
  uri: string;
  alt?: string | null;
}

export interface ResolvedImages {
  /** By file name (`rst2img-N.<ext>`), for the pdfTeX job folder. */
  files: Record<string, Uint8Array>;
  problems: ImageProblem[];
}

export interface ImageResolverDeps {
  /** The service's fetch policy (addresses, redirects, per-fetch timeout); its byte limit is replaced by `limits.maxBytes`. */
  policy: FetchPolicy;
  limits: ImageLimits;
  cache: ImageCache;
  /** Where DejaVu Sans is, for the text of SVG images. */
  fontDir: string;
  /**
   * Makes the file from the bytes: the service's ConvertPool (a worker),
   * else prepareImage in this thread; `budget` ends when the document's
   * time for images does.
   */
  prepare?: (bytes: Uint8Array, sniffed: Sniffed, options: ConvertOptions, budget: AbortSignal) => Promise<Prepared>;
}

const IMAGE_ACCEPT = 'image/png, image/jpeg, image/svg+xml, image/gif, image/webp, application/pdf;q=0.9, */*;q=0.5';

// What a fetch failure says about trying again later.
const TRANSIENT: ReadonlySet<string> = new Set([Code.uri_timeout, Code.uri_unreachable]);

function fetchProblem(error: ServiceError): ImageRefused {
  const status = error.details?.upstreamStatus;
  const transient = TRANSIENT.has(error.code) || (typeof status === 'number' && status >= 500);
  return new ImageRefused(error.message, transient);
}

/** Runs `work` for each index with at most `limit` at once. */
async function eachLimited(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
}

export class ImageResolver {
  constructor(private readonly deps: ImageResolverDeps) {}

  async resolve(images: readonly ImageRef[], base: string | undefined): Promise<ResolvedImages> {
    const { limits } = this.deps;
    const files: Record<string, Uint8Array> = {};
    const problems: ImageProblem[] = [];
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), limits.timeBudgetMs);
    // One fetch per URL, however often the document shows it.
    const byUrl = new Map<string, Promise<Prepared>>();
    const outcomes: (Prepared | ImageRefused)[] = new Array<Prepared | ImageRefused>(images.length);
    // The files stay in memory until pdfTeX is done, however long the
    // document waits for it: their total is bounded, not just each one.
    let left = limits.maxDocumentBytes;
    let full = false;
    const counted = new Set<Prepared>();
    const overTotal = (): ImageRefused =>
      new ImageRefused(`the document's images are larger than ${limits.maxDocumentBytes} bytes together; the rest are not used`);
    const take = (prepared: Prepared): Prepared => {
      if (counted.has(prepared)) return prepared;
      if (prepared.bytes.length > left) {
        full = true;
        throw overTotal();
      }
      left -= prepared.bytes.length;
      counted.add(prepared);
      return prepared;
    };
    try {
      await eachLimited(images.length, limits.concurrency, async (index) => {
        const image = images[index]!;
        if (index >= limits.maxCount) {
          outcomes[index] = new ImageRefused(`the document has more than ${limits.maxCount} images; the rest are not fetched`);
          return;
        }
        try {
          if (full) throw overTotal();
          const source = imageSource(image.uri, base, limits.maxBytes);
          if (source.kind === 'data') {
            outcomes[index] = take(await this.prepare(source.bytes, budget.signal));
            return;
          }
          let pending = byUrl.get(source.url);
          if (!pending) {
            // Never read more than the document may still use.
            const maxBytes = Math.min(limits.maxBytes, left);
            pending = this.fetchPrepared(source.url, budget.signal, maxBytes, () => {
              full = true;
              return overTotal();
            });
            byUrl.set(source.url, pending);
          }
          outcomes[index] = take(await pending);
        } catch (error) {
          // Whatever goes wrong with one image, the document still renders
          // (a decoder's own failure included); the reason says what it was.
          outcomes[index] =
            error instanceof ImageRefused
              ? error
              : new ImageRefused(`the image could not be prepared (${error instanceof Error ? error.message : String(error)})`.slice(0, 300));
        }
      });
    } finally {
      clearTimeout(timer);
    }
    outcomes.forEach((outcome, index) => {
      if (outcome instanceof ImageRefused) problems.push({ uri: images[index]!.uri, reason: outcome.reason, transient: outcome.transient });
      else files[`rst2img-${index + 1}.${outcome.ext}`] = outcome.bytes;
    });
    return { files, problems };
  }

  private prepare(bytes: Uint8Array, budget: AbortSignal): Promise<Prepared> {
    // Conversions count against the document's budget like fetches: data:
    // images need no fetch, and each may take the converter's full deadline.
    if (budget.aborted) throw this.overBudget();
    const options = { maxPixels: this.deps.limits.maxPixels, fontDir: this.deps.fontDir, svg: this.deps.limits.svg };
    return (this.deps.prepare ?? prepareImage)(bytes, sniff(bytes), options, budget);
  }

  private overBudget(): ImageRefused {
    return new ImageRefused(`the document's images took longer than their time budget of ${this.deps.limits.timeBudgetMs} ms`, true);
  }

  /** `overTotal`: the refusal for an image past `maxBytes` when that is less than one image may have (the document's total is what it hit). */
  private async fetchPrepared(url: string, budget: AbortSignal, maxBytes: number, overTotal: () => ImageRefused): Promise<Prepared> {
    const cached = await this.deps.cache.get(url);
    if (cached) return cached;
    if (budget.aborted) throw this.overBudget();
    let bytes: Uint8Array;
    try {
      const policy = { ...this.deps.policy, maxBytes };
      ({ bytes } = await fetchBytes(url, policy, { subject: 'image', accept: IMAGE_ACCEPT, signal: budget }));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (budget.aborted) throw this.overBudget();
      if (error.code === Code.uri_too_large && maxBytes < this.deps.limits.maxBytes) throw overTotal();
      throw fetchProblem(error);
    }
    const prepared = await this.prepare(bytes, budget);
    await this.deps.cache.set(url, prepared);
    return prepared;
  }
}

/**
 * The resolver with the service's settings (RST2_IMAGE_*, the RST2_URI_*
 * fetch policy), the given image store and, for the service, its converter.
 */
export function imageResolverFor(config: Config, store: RenderCache, prepare?: ImageResolverDeps['prepare']): ImageResolver {
  return new ImageResolver({
    ...(prepare ? { prepare } : {}),
    policy: fetchPolicyOf(config),
    limits: {
      maxBytes: config.imageMaxBytes,
      maxCount: config.imageMaxCount,
      maxDocumentBytes: config.imageDocumentBytes,
      concurrency: config.imageFetchConcurrency,
      timeBudgetMs: config.imageTimeBudgetMs,
      maxPixels: config.imageMaxPixels,
      svg: {
        maxMemoryBytes: config.svgMaxMemoryBytes,
        filters: { maxPrimitives: config.svgMaxFilterPrimitives, maxNesting: config.svgMaxFilterNesting, maxRegionRatio: config.svgMaxFilterRegion },
      },
    },
    cache: new ImageCache(store),
    fontDir: paths.fonts,
  });
}
