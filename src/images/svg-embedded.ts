/**
 * The raster images an SVG embeds as data: URIs, checked before resvg sees
 * the SVG: resvg decodes them itself, with no pixel limit, so a small SVG
 * could carry a decompression bomb (a 389 KB PNG of 20000 × 20000 pixels
 * took the process to 2 GB). resvg reads an href the way a browser does —
 * XML character references and entities resolved, then a data: URL whose
 * base64 may contain whitespace and percent-escapes — so the check reads it
 * the same way, and fails closed: a data: URI it cannot decode, or whose
 * bytes it cannot size, refuses the SVG instead of being skipped.
 */
import { checkPixels, sniff } from './sniff.js';
import { ImageRefused } from './problems.js';

// Data URIs inside data URIs (an SVG logo in a badge) are looked into this deep.
const EMBEDDED_DEPTH = 3;

const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text with XML character references and the predefined entities resolved. */
function unescapeXml(text: string): string {
  return text.replace(/&(?:#x([0-9a-f]+)|#([0-9]+)|([a-z]+));/gi, (whole, hex?: string, dec?: string, name?: string) => {
    if (name !== undefined) return PREDEFINED[name] ?? whole;
    const code = hex !== undefined ? parseInt(hex, 16) : Number(dec);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function percentDecode(text: string): Buffer {
  // Like a URL parser: a "%" not followed by two hex digits stays as it is.
  const bytes: number[] = [];
  const raw = Buffer.from(text, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    const hex = raw.subarray(i + 1, i + 3).toString('latin1');
    if (raw[i] === 0x25 && /^[0-9a-f]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(raw[i]!);
  }
  return Buffer.from(bytes);
}

// A data: URI where an attribute value or a CSS url() starts (text such as
// "data: 1, 2" in a chart's labels is no image): the mediatype part (up to
// the first comma), then the payload, which ends at a quote or markup;
// whitespace does not end it (resvg drops it from base64).
const DATA_URI = /(?:=\s*["']|url\(\s*["']?)\s*data:([^,]{0,256}?),([^"'<>]*)/gi;

function payloadOf(mediatype: string, payload: string): Uint8Array {
  const bytes = percentDecode(payload);
  if (!/;\s*base64\s*$/i.test(mediatype)) return bytes;
  const text = bytes.toString('latin1').replace(/[\t\n\f\r ]+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new ImageRefused('the SVG embeds a data: URI that is not valid base64');
  return Buffer.from(text, 'base64');
}

/**
 * Refuses an SVG that embeds, at any depth up to EMBEDDED_DEPTH, an image of
 * more than `maxPixels` pixels (all its embedded images together), an SVG
 * with entity declarations, or data the check cannot read.
 */
export function checkEmbeddedImages(svg: string, maxPixels: number): void {
  let pixels = 0;
  const visit = (text: string, depth: number): void => {
    // Entities expand without bound; only the outer SVG's DOCTYPE is checked by sniff.
    if (/<!ENTITY/i.test(text)) throw new ImageRefused('the SVG declares XML entities');
    for (const [, mediatype = '', payload = ''] of unescapeXml(text).matchAll(DATA_URI)) {
      const bytes = payloadOf(mediatype, payload);
      let sniffed;
      try {
        sniffed = sniff(bytes);
      } catch {
        throw new ImageRefused('the SVG embeds a data: URI that is not an image the service can check');
      }
      if (sniffed.format === 'svg') {
        if (depth >= EMBEDDED_DEPTH) throw new ImageRefused('the SVG nests images in images too deeply');
        visit(Buffer.from(bytes).toString('utf8'), depth + 1);
      } else if (sniffed.width !== undefined && sniffed.height !== undefined) {
        checkPixels(sniffed.width, sniffed.height, maxPixels);
        pixels += sniffed.width * sniffed.height;
        if (pixels > maxPixels) throw new ImageRefused(`the SVG's embedded images have more than ${maxPixels} pixels together`);
      } else {
        // A PDF inside an SVG: resvg cannot draw it, and nothing of it is sized here.
        throw new ImageRefused(`the SVG embeds a ${sniffed.format} image, which cannot be drawn`);
      }
    }
  };
  visit(svg, 0);
}
