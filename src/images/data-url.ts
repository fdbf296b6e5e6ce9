/**
 * A data: URL read as the WHATWG fetch standard's data: URL processor reads
 * it, which is what resvg (the data-url crate) and browsers do: any length
 * of media type and parameters, the body percent-decoded, then, when the
 * media type ends in ";base64", forgiving-base64 (ASCII whitespace dropped,
 * padding optional). Whatever that processor would reject is refused here,
 * so that a check built on this reads exactly the bytes a decoder would.
 */
import { ImageRefused } from './problems.js';

export interface DataUrl {
  /** As written, without ";base64" (may be empty). */
  mediaType: string;
  bytes: Buffer;
}

const ASCII_WHITESPACE = /[\t\n\f\r ]+/g;

/** Percent-decoding as a URL parser does it: a "%" not followed by two hex digits stays as it is. */
function percentDecode(text: string): Buffer {
  const raw = Buffer.from(text, 'utf8');
  const bytes = Buffer.alloc(raw.length);
  let length = 0;
  for (let i = 0; i < raw.length; i++) {
    const hex = raw[i] === 0x25 && i + 2 < raw.length ? raw.subarray(i + 1, i + 3).toString('latin1') : '';
    if (/^[0-9a-f]{2}$/i.test(hex)) {
      bytes[length++] = parseInt(hex, 16);
      i += 2;
    } else bytes[length++] = raw[i]!;
  }
  return bytes.subarray(0, length);
}

function forgivingBase64(text: string): Buffer {
  let data = text.replace(ASCII_WHITESPACE, '');
  if (data.length % 4 === 0) data = data.replace(/={1,2}$/, '');
  if (data.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(data)) throw new ImageRefused('the data: URI is not valid base64');
  return Buffer.from(data, 'base64');
}

/** The media type and bytes of a `data:` URL, or ImageRefused where the standard's processor fails. */
export function parseDataUrl(url: string): DataUrl {
  // The URL parser strips leading and trailing C0 controls and spaces, and tabs and newlines anywhere.
  const text = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (!/^data:/i.test(text)) throw new ImageRefused('not a data: URI');
  const comma = text.indexOf(',', 5);
  if (comma < 0) throw new ImageRefused('the data: URI has no comma before its data');
  let mediaType = text.slice(5, comma).replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  const body = percentDecode(text.slice(comma + 1));
  const base64 = /;\u0020*base64$/i.exec(mediaType);
  if (!base64) return { mediaType, bytes: body };
  mediaType = mediaType.slice(0, base64.index);
  return { mediaType, bytes: forgivingBase64(body.toString('latin1')) };
}
