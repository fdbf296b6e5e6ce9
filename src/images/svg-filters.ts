/**
 * What an SVG's filters would cost resvg, judged before it draws: resvg
 * gives each filtered group a layer the size of its filter region (not
 * clipped to the canvas), several buffers of it per primitive, and keeps
 * one per level of filtered groups inside filtered groups. A 4.5 KB SVG of
 * 20 nested groups, each with a turbulence and a blur over a region 200000
 * units wide, took the service from 620 MB to 4.5 GB. The canvas limit
 * (SVG_MAX_PIXELS in convert.ts) bounds none of that, so this refuses an SVG
 * whose filter regions, nesting of filtered groups or number of primitive
 * runs pass the limits.
 *
 * It reads usvg's own tree (resvg's toString()): `use` copies, nested
 * `svg` elements, CSS and text are resolved there into groups with one
 * transform matrix each, paths of absolute coordinates and filters with
 * their resolved regions, so what is checked is what resvg will draw.
 */
import { xml2js, type Element } from 'xml-js';

import { ImageRefused } from './problems.js';

export interface FilterLimits {
  /** Filter primitives run per document: each filtered group counts its filter's primitives. */
  maxPrimitives: number;
  /** Filtered groups inside one another. */
  maxNesting: number;
  /** A filter region may cover this many times the pixels of the drawn canvas. */
  maxRegionRatio: number;
}

/** a b c d e f, as in SVG's matrix(): x' = a x + c y + e, y' = b x + d y + f. */
type Matrix = readonly [number, number, number, number, number, number];
interface Box { x0: number; y0: number; x1: number; y1: number }

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const EMPTY: Box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };

const multiply = ([a, b, c, d, e, f]: Matrix, [A, B, C, D, E, F]: Matrix): Matrix =>
  [a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f];

// Nothing drawn is EMPTY itself, never judged by comparing numbers: a box
// of NaN (from an infinite size) must stay NaN, and so be refused.
const isEmpty = (box: Box): boolean => box === EMPTY;
const union = (p: Box, q: Box): Box =>
  isEmpty(p) ? q : isEmpty(q) ? p : { x0: Math.min(p.x0, q.x0), y0: Math.min(p.y0, q.y0), x1: Math.max(p.x1, q.x1), y1: Math.max(p.y1, q.y1) };
const point = (x: number, y: number): Box => ({ x0: x, y0: y, x1: x, y1: y });

function apply([a, b, c, d, e, f]: Matrix, box: Box): Box {
  if (isEmpty(box)) return EMPTY;
  const xs = [box.x0, box.x1];
  const ys = [box.y0, box.y1];
  let out = EMPTY;
  for (const x of xs) for (const y of ys) out = union(out, point(a * x + c * y + e, b * x + d * y + f));
  return out;
}

function numbers(text: string | undefined): number[] {
  return (text?.match(/[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi) ?? []).map(Number);
}

const attr = (el: Element, name: string): string | undefined => {
  const value = el.attributes?.[name];
  return value === undefined ? undefined : String(value);
};

function transformOf(el: Element): Matrix {
  const text = attr(el, 'transform');
  if (text === undefined) return IDENTITY;
  const m = numbers(text);
  // usvg writes every transform as one matrix(); anything else is not its tree.
  if (!/^\s*matrix\(/.test(text) || m.length !== 6) throw new ImageRefused('the SVG\'s drawing tree could not be read');
  return m as unknown as Matrix;
}

// A value that is not finite stays so: the sizes it makes are then refused.
const number = (el: Element, name: string, fallback: number): number => {
  const value = attr(el, name);
  return value === undefined ? fallback : Number(value);
};

/** An upper bound of what a path covers: its points (usvg writes absolute M, L, Q, C only) and stroke. */
function pathBox(el: Element): Box {
  const xy = numbers(attr(el, 'd'));
  let box = EMPTY;
  for (let i = 0; i + 1 < xy.length; i += 2) box = union(box, point(xy[i]!, xy[i + 1]!));
  const stroke = attr(el, 'stroke');
  if (!isEmpty(box) && stroke !== undefined && stroke !== 'none') {
    // Miters reach past half the width; twice the width bounds the default miter limit (4).
    const reach = Math.abs(number(el, 'stroke-width', 1)) * Math.max(2, number(el, 'stroke-miterlimit', 4) / 2);
    box = { x0: box.x0 - reach, y0: box.y0 - reach, x1: box.x1 + reach, y1: box.y1 + reach };
  }
  return box;
}

interface Filter {
  userSpace: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
  primitives: number;
}

function filtersOf(root: Element): Map<string, Filter> {
  const filters = new Map<string, Filter>();
  const visit = (el: Element): void => {
    if (el.name === 'filter') {
      filters.set(attr(el, 'id') ?? '', {
        userSpace: attr(el, 'filterUnits') === 'userSpaceOnUse',
        x: number(el, 'x', -0.1),
        y: number(el, 'y', -0.1),
        width: number(el, 'width', 1.2),
        height: number(el, 'height', 1.2),
        primitives: (el.elements ?? []).filter((child) => child.type === 'element').length,
      });
    }
    for (const child of el.elements ?? []) visit(child);
  };
  visit(root);
  return filters;
}

/**
 * Refuses the SVG whose usvg tree (`tree`) is drawn on a canvas of
 * `canvas.width` × `canvas.height` pixels when its filters pass `limits`.
 */
export function checkFilters(tree: string, canvas: { width: number; height: number }, limits: FilterLimits): void {
  if (!/<filter[\s>]/.test(tree)) return;
  const svg = (xml2js(tree, { compact: false }) as Element).elements?.find((el) => el.name === 'svg');
  if (!svg) throw new ImageRefused('the SVG\'s drawing tree could not be read');
  const filters = filtersOf(svg);
  const [, , vbWidth = number(svg, 'width', canvas.width), vbHeight = number(svg, 'height', canvas.height)] = numbers(attr(svg, 'viewBox'));
  // The region's pixels: from user units by the larger scale (preserveAspectRatio's slice at worst).
  const scale = Math.max(canvas.width / vbWidth, canvas.height / vbHeight);
  const canvasPixels = canvas.width * canvas.height;
  let primitives = 0;

  /** What `el` covers in its parent's user space; checks each filtered group on the way. */
  const visit = (el: Element, parent: Matrix, depth: number): Box => {
    if (el.type !== 'element' || el.name === 'filter' || el.name === 'clipPath') return EMPTY;
    const own = transformOf(el);
    const ctm = multiply(parent, own);
    if (el.name === 'path') return apply(own, pathBox(el));
    if (el.name === 'image') return apply(own, { x0: number(el, 'x', 0), y0: number(el, 'y', 0), x1: number(el, 'x', 0) + number(el, 'width', 0), y1: number(el, 'y', 0) + number(el, 'height', 0) });
    const ids = [...(attr(el, 'filter') ?? '').matchAll(/url\(#([^)]+)\)/g)].map((m) => m[1]!);
    const nested = depth + (ids.length > 0 ? 1 : 0);
    if (nested > limits.maxNesting) {
      throw new ImageRefused(`the SVG nests filtered groups ${nested} deep, more than the limit of ${limits.maxNesting}`);
    }
    let content = EMPTY;
    for (const child of el.elements ?? []) content = union(content, visit(child, ctm, nested));
    if (ids.length === 0) return apply(own, content);
    let layer = EMPTY;
    for (const id of ids) {
      const filter = filters.get(id);
      if (!filter) continue;
      primitives += filter.primitives;
      if (primitives > limits.maxPrimitives) {
        throw new ImageRefused(`the SVG runs more than ${limits.maxPrimitives} filter primitives, the limit`);
      }
      const region = filter.userSpace
        ? { x0: filter.x, y0: filter.y, x1: filter.x + filter.width, y1: filter.y + filter.height }
        : isEmpty(content)
          ? EMPTY
          : {
              x0: content.x0 + filter.x * (content.x1 - content.x0),
              y0: content.y0 + filter.y * (content.y1 - content.y0),
              x1: content.x0 + (filter.x + filter.width) * (content.x1 - content.x0),
              y1: content.y0 + (filter.y + filter.height) * (content.y1 - content.y0),
            };
      const pixels = apply(ctm, region);
      const area = isEmpty(pixels) ? 0 : (pixels.x1 - pixels.x0) * scale * (pixels.y1 - pixels.y0) * scale;
      // Written so that a region of NaN or infinite size is refused too.
      if (!(area <= limits.maxRegionRatio * canvasPixels)) {
        throw new ImageRefused(
          `an SVG filter region of ${Math.round(area)} pixels is more than ${limits.maxRegionRatio} times the ${canvas.width} × ${canvas.height} pixels drawn, the limit`,
        );
      }
      layer = union(layer, region);
    }
    return apply(own, layer);
  };
  for (const child of svg.elements ?? []) visit(child, IDENTITY, 0);
}
