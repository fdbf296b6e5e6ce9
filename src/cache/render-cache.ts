/** Finished renderings, keyed by operation, options and document digest. */
export interface Rendering {
  body: Buffer;
  type: string;
  /** For Content-Disposition (PDF). */
  filename?: string;
  /**
   * What the document asked for and could not have, so it was replaced by a
   * visible placeholder (a PDF still renders). Cached with the rendering: a
   * cache hit must say the same as the miss that made it.
   */
  replaced?: Replaced;
}

/** Counts of placeholders in a rendering; a count of 0 is left out. */
export interface Replaced {
  /** Images that could not be fetched, decoded or converted. */
  images?: number;
  /** Characters that no shipped font has. */
  characters?: number;
}


export interface RenderCache {
  get(key: string): Promise<Rendering | undefined>;
  set(key: string, value: Rendering): Promise<void>;
}

/** For a caller that renders once (the command line): remembers nothing. */
export const NO_CACHE: RenderCache = {
  get: async () => undefined,
  set: async () => {},
};
