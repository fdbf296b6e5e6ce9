/** A document as every route sees it, whichever way the client supplied it. */
import { createHash } from 'node:crypto';

export interface Document {
  text: string;
  /** SHA-256 of the UTF-8 text, hex: the key for tokens and the render cache. */
  digest: string;
}

export function makeDocument(text: string): Document {
  return { text, digest: createHash('sha256').update(text, 'utf8').digest('hex') };
}

/** The same document always gets the same token: the first 128 bits of its digest. */
export function tokenOf(doc: Document): string {
  return doc.digest.slice(0, 32);
}

export const TOKEN_PATTERN = /^[0-9a-f]{32}$/;
