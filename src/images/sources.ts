/**
 * Where an image of a document comes from, decided from its URI alone:
 * bytes in a `data:` URI, an http(s) URL (absolute, or relative to the
 * document's own URL), or nowhere. The service's file system is never a
 * source: `/etc/passwd`, `file:` URIs and `..` paths are refused here,
 * before anything is read or fetched.
 */
import { parseDataUrl } from './data-url.js';
import { ImageRefused } from './problems.js';

export type ImageSource = { kind: 'data'; bytes: Uint8Array } | { kind: 'url'; url: string };

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

function fromData(uri: string, maxBytes: number): ImageSource {
  const comma = uri.indexOf(',');
  // Checked before decoding: base64 holds 3 bytes in 4 characters.
  if (comma >= 0 && Math.floor(((uri.length - comma - 1) * 3) / 4) > maxBytes + 2) throw new ImageRefused(`the image is larger than the limit of ${maxBytes} bytes`);
  // Read as a browser (and resvg) reads it: see data-url.ts.
  const { bytes } = parseDataUrl(uri);
  if (bytes.length > maxBytes) throw new ImageRefused(`the image is larger than the limit of ${maxBytes} bytes`);
  return { kind: 'data', bytes };
}

/** The source of an image, or ImageRefused; `base` is the document's URL when it came by `uri`. */
export function imageSource(uri: string, base: string | undefined, maxBytes: number): ImageSource {
  const trimmed = uri.trim();
  const scheme = SCHEME.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === 'data') return fromData(trimmed, maxBytes);
  if (scheme === 'http' || scheme === 'https') return { kind: 'url', url: trimmed };
  // A path from the root ("/docs/a.png") or a host ("//cdn/a.png") is, for a
  // document with a URL, relative to that URL as in a browser; without one
  // it could only mean this machine's files.
  if (scheme !== undefined || trimmed.startsWith('\\') || (trimmed.startsWith('/') && base === undefined)) {
    throw new ImageRefused('not an http(s) or data: URI (the service never reads its own files)');
  }
  if (base === undefined) {
    throw new ImageRefused('a relative path, and the document has no URL to resolve it against (only documents given by uri have one)');
  }
  let resolved: URL;
  try {
    resolved = new URL(trimmed, base);
  } catch {
    throw new ImageRefused('a relative path that does not resolve against the document URL');
  }
  if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') {
    throw new ImageRefused('a relative path that does not resolve to an http(s) URL');
  }
  return { kind: 'url', url: resolved.href };
}
