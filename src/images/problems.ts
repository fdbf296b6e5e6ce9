/** What went wrong with one image of a document: it becomes a placeholder, and this is reported. */
export interface ImageProblem {
  /** The image's URI as the document wrote it. */
  uri: string;
  /** A sentence for the log and the command line. */
  reason: string;
  /**
   * The same image may well work on the next try (timeout, unreachable,
   * upstream 5xx, the document's time budget): a rendering with such a
   * problem is not kept in the render cache.
   */
  transient: boolean;
}

/** Thrown inside src/images/ for an image that cannot be had; becomes an ImageProblem. */
export class ImageRefused extends Error {
  override name = 'ImageRefused';

  constructor(
    readonly reason: string,
    readonly transient = false,
  ) {
    super(reason);
  }
}
