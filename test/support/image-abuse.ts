/**
 * The images of issue 19's attack run, and their variants, as the tests
 * and bench/image-abuse.ts send them: a GIF whose frame dwarfs its screen,
 * SVGs whose filters grow resvg's memory, and an SVG hiding a bomb behind
 * a long data: media type.
 */
import { gifWithFrames } from './gif-lzw.js';
import { pngClaiming, svgWithImage } from './images.js';

export const dataUri = (type: string, bytes: Buffer | string): string => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

/** A GIF89a with a 1 × 1 screen whose first frame is `side` × `side` (36000: 480 KB, 1.3 billion pixels). */
export const gifFrameBomb = (side: number): Buffer => gifWithFrames(1, 1, [{ width: side, height: side }]);

export interface FilterAbuse {
  /** Filtered groups nested inside one another, each with its own filter. */
  levels: number;
  /** The filter region, in user units (userSpaceOnUse), centred on the drawing. */
  regionWidth: number;
  regionHeight: number;
  /** Primitives in each filter: a turbulence of 10 octaves, then blurs. */
  primitives?: number;
}

/** The attack: nested groups, each filtered by feTurbulence (numOctaves 10) and feGaussianBlur (stdDeviation 500) over a huge region. */
export function filterAbuse({ levels, regionWidth, regionHeight, primitives = 2 }: FilterAbuse): string {
  const effects = '<feTurbulence baseFrequency="0.05" numOctaves="10"/>' + '<feGaussianBlur stdDeviation="500"/>'.repeat(primitives - 1);
  const filters = Array.from({ length: levels }, (_, i) =>
    `<filter id="f${i}" filterUnits="userSpaceOnUse" x="${-regionWidth / 2}" y="${-regionHeight / 2}" width="${regionWidth}" height="${regionHeight}">${effects}</filter>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><defs>${filters}</defs>` +
    Array.from({ length: levels }, (_, i) => `<g filter="url(#f${i})">`).join('') + '<rect width="100" height="100" fill="red"/>' + '</g>'.repeat(levels) + '</svg>';
}

/** An SVG whose image is a PNG behind a media type with a parameter of `length` characters. */
export function longMediaType(length: number, image: Buffer = pngClaiming(100_000, 100_000)): string {
  return svgWithImage(`data:image/png;x=${'a'.repeat(length)};base64,${image.toString('base64')}`);
}
