/** Finished renderings, keyed by operation, options and document digest. */
export interface Rendering {
  body: Buffer;
  type: string;
  /** For Content-Disposition (PDF). */
  filename?: string;
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
