/**
 * The raster images an SVG embeds as data: URIs, checked before resvg sees
 * the SVG: resvg decodes them itself, with no pixel limit, so a small SVG
 * could carry a decompression bomb (a 389 KB PNG of 20000 × 20000 pixels
 * took the process to 2 GB). resvg reads an href the way a browser does —
 * XML character references and entities resolved, then a data: URL whose
 * base64 may contain whitespace and percent-escapes, after a media type of
 * any length (data-url.ts) — so the check reads it the same way, and fails
 * closed: a data: URI it cannot decode, or whose bytes it cannot size,
 * refuses the SVG instead of being skipped.
 */
import { parseDataUrl } from './data-url.js';
import { checkSize, sniff } from './sniff.js';
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

// Where a data: URI starts: an attribute value or a CSS url() (text such as
// "data: 1, 2" in a chart's labels is no image). The URI runs to the quote
// or markup that ends the value (an unquoted url() at its parenthesis); its
// media type may be of any length, and whitespace inside it does not end it
// (resvg drops it from base64).
const DATA_URI = /(?:=\s*["']|url\(\s*["'])(\s*data:[^"'<>]*)|url\(\s*(data:[^"'<>)]*)/gi;

function payloadOf(uri: string): Uint8Array {
  try {
    return parseDataUrl(uri).bytes;
  } catch (error) {
    const reason = error instanceof ImageRefused ? error.reason.replace(/^the data: URI/, '') : '';
    throw new ImageRefused(`the SVG embeds a data: URI that cannot be read${reason ? ` (${reason.trim()})` : ''}`);
  }
}

/**
 * Refuses an SVG that embeds, at any depth up to EMBEDDED_DEPTH, an image of
 * more than `maxPixels` pixels (all its embedded images together), an SVG
 * with entity declarations or filters, or data the check cannot read.
 */
export function checkEmbeddedImages(svg: string, maxPixels: number): void {
  let pixels = 0;
  const visit = (text: string, depth: number): void => {
    // Entities expand without bound; only the outer SVG's DOCTYPE is checked by sniff.
    if (/<!ENTITY/i.test(text)) throw new ImageRefused('the SVG declares XML entities');
    // The filter check (svg-filters.ts) reads the outer SVG's tree, where an
    // embedded SVG is still a data: URI: filters there would go unchecked.
    if (depth > 0 && /<\s*(?:[\w.-]+:)?fe[A-Z]/.test(text)) throw new ImageRefused('the SVG embeds an SVG image with filters (filters are drawn only in the outer SVG)');
    for (const [, quoted, unquoted] of unescapeXml(text).matchAll(DATA_URI)) {
      const bytes = payloadOf(quoted ?? unquoted ?? '');
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
        checkSize(sniffed, maxPixels);
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
