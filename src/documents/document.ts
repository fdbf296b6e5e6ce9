/** A document as every route sees it, whichever way the client supplied it. */
import { createHash } from 'node:crypto';

export interface Document {
  text: string;
  /** SHA-256 of the UTF-8 text, hex: the key for tokens and the render cache. */
  digest: string;
  /**
   * The URL the text was fetched from (after redirects), for a document that
   * came by `uri`: relative image paths and links resolve against it, as
   * GitHub and PyPI resolve a README's. Absent for `rst` and `token`
   * documents, which have nothing to resolve against.
   */
  base?: string;
}

export function makeDocument(text: string, base?: string): Document {
  const digest = createHash('sha256').update(text, 'utf8').digest('hex');
  return base === undefined ? { text, digest } : { text, digest, base };
}

/** The same document always gets the same token: the first 128 bits of its digest. */
export function tokenOf(doc: Document): string {
  return doc.digest.slice(0, 32);
}

export const TOKEN_PATTERN = /^[0-9a-f]{32}$/;
