/**
 * The SVG bounds of issue 19 that need no engine: filters judged on usvg's
 * tree (written here as resvg's toString() writes it), the zoom of a
 * drawing, the ceiling written into a WebAssembly module's memory, and
 * data: URLs read as the fetch standard reads them.
 */
import { expect } from 'chai';

import { svgZoom } from '../../src/images/convert.js';
import { parseDataUrl } from '../../src/images/data-url.js';
import { refusal } from './support/refusal.js';
import { checkFilters } from '../../src/images/svg-filters.js';
import { capWasmMemory } from '../../src/images/wasm-memory.js';

const LIMITS = { maxPrimitives: 50, maxNesting: 2, maxRegionRatio: 3 };
const CANVAS = { width: 800, height: 800 };

/** A usvg tree of a 400 × 400 SVG with `defs` and `body`. */
const tree = (defs: string, body: string, viewBox = '0 0 400 400'): string =>
  `<svg width="400" height="400" viewBox="${viewBox}" xmlns="http://www.w3.org/2000/svg"><defs>${defs}</defs>${body}</svg>`;
const blur = (id: string, region = 'x="-0.1" y="-0.1" width="1.2" height="1.2"', primitives = 1): string =>
  `<filter id="${id}" ${region}>${'<feGaussianBlur stdDeviation="2 2" result="r"/>'.repeat(primitives)}</filter>`;
const square = (side: number): string => `<path fill="#000000" stroke="none" d="M 0 0 L ${side} 0 L ${side} ${side} L 0 ${side} Z"/>`;

describe('SVG filter limits, on usvg\'s tree', () => {
  const check = (svg: string) => refusal(() => checkFilters(svg, CANVAS, LIMITS));

  it('lets ordinary filters through: a shadow on the whole canvas, nested once; none at all', () => {
    const shadow = blur('s', 'x="-0.25" y="-0.25" width="1.5" height="1.5"');
    expect(() => checkFilters(tree(shadow, `<g filter="url(#s)">${square(400)}<g filter="url(#s)">${square(100)}</g></g>`), CANVAS, LIMITS)).to.not.throw();
    expect(() => checkFilters(tree('', square(400)), CANVAS, LIMITS)).to.not.throw();
  });

  it('refuses filtered groups nested past the limit', () => {
    const body = `<g filter="url(#a)"><g><g filter="url(#a)"><g filter="url(#a)">${square(10)}</g></g></g></g>`;
    expect(check(tree(blur('a'), body))).to.equal('the SVG nests filtered groups 3 deep, more than the limit of 2');
  });

  it('judges a region in pixels: user space, bounding box, transforms, viewBox; an unreadable size is refused', () => {
    const wide = blur('u', 'x="-100000" y="-10" width="200000" height="20" filterUnits="userSpaceOnUse"');
    expect(check(tree(wide, `<g filter="url(#u)">${square(10)}</g>`))).to.match(/filter region of 16000000 pixels is more than 3 times the 800 × 800 pixels drawn/);
    // The object's box, grown by a transform and a viewBox that magnifies 10 times.
    expect(check(tree(blur('b'), `<g transform="matrix(3 0 0 3 0 0)"><g filter="url(#b)">${square(40)}</g></g>`, '0 0 40 40'))).to.match(/filter region .* the limit/);
    expect(() => checkFilters(tree(blur('b'), `<g filter="url(#b)">${square(40)}</g>`, '0 0 40 40'), CANVAS, LIMITS)).to.not.throw();
    // A stroke as wide as the canvas widens the box; so does a filtered group inside.
    expect(check(tree(blur('b'), `<g filter="url(#b)"><path stroke="#000" stroke-width="1000" d="M 0 0 L 10 10"/></g>`))).to.match(/filter region/);
    expect(check(tree(blur('b', 'x="-2" y="-2" width="5" height="5"') + blur('c', 'x="-0.4" y="-0.4" width="1.8" height="1.8"'), `<g filter="url(#c)"><g transform="matrix(1 0 0 1 0 0)">${square(10)}</g><g filter="url(#b)">${square(100)}</g></g>`))).to.match(/filter region/);
    expect(check(tree(blur('n', 'x="0" y="0" width="1e400" height="1" filterUnits="userSpaceOnUse"'), `<g filter="url(#n)">${square(1)}</g>`))).to.match(/filter region/);
  });

  it('counts primitives per run: one filter used by many groups counts each time', () => {
    const body = Array.from({ length: 11 }, () => `<g filter="url(#five)">${square(10)}</g>`).join('');
    expect(check(tree(blur('five', undefined, 5), body))).to.equal('the SVG runs more than 50 filter primitives, the limit');
    expect(() => checkFilters(tree(blur('five', undefined, 5), body.slice(0, body.length * 10 / 11)), CANVAS, LIMITS)).to.not.throw();
  });

  it('refuses a tree it cannot read rather than guess', () => {
    expect(check(tree(blur('a'), `<g transform="rotate(4)" filter="url(#a)">${square(10)}</g>`))).to.match(/could not be read/);
  });
});

describe('SVG zoom', () => {
  it('draws twice the size when it fits, else at most the limit, counting each side rounded up; refuses shapes that cannot fit', () => {
    expect(svgZoom(90, 20, 4_000_000)).to.equal(2);
    for (const [w, h] of [[100_000, 50_000], [2000, 2000], [1e9, 1e9], [3, 1e6]] as const) {
      const zoom = svgZoom(w, h, 4_000_000);
      expect(zoom, `${w} × ${h}`).to.be.above(0);
      expect(Math.ceil(w * zoom) * Math.ceil(h * zoom), `${w} × ${h}`).to.be.at.most(4_000_000);
    }
    // 10 × 10⁸ at the zoom of its area alone: 1 × 6.3 million pixels.
    expect(svgZoom(10, 1e8, 4_000_000)).to.equal(0);
  });
});

describe('a WebAssembly memory ceiling', () => {
  // (module (memory (export "memory") 1)), and the same with a maximum of 100 pages.
  const module = (limits: number[]) => Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 1 + limits.length, 1, ...limits, 7, 10, 1, 6, ...Buffer.from('memory'), 2, 0]);

  it('writes a maximum into the module\'s memory, lowering one it had, never below its minimum', async () => {
    const grow = async (bytes: Uint8Array, pages: number): Promise<boolean> => {
      const { instance } = (await WebAssembly.instantiate(bytes)) as unknown as WebAssembly.WebAssemblyInstantiatedSource;
      try {
        (instance.exports.memory as WebAssembly.Memory).grow(pages);
        return true;
      } catch {
        return false;
      }
    };
    expect(await grow(module([0, 1]), 200)).to.equal(true);
    const capped = capWasmMemory(module([0, 1]), 4 * 65536);
    expect(await grow(capped, 3)).to.equal(true);
    expect(await grow(capped, 4)).to.equal(false);
    expect(await grow(capWasmMemory(module([1, 1, 100]), 10 * 65536), 10)).to.equal(false);
    expect(await grow(capWasmMemory(module([0, 1]), 0), 1)).to.equal(false);
  });
});

describe('data: URLs, as the fetch standard reads them', () => {
  it('any length of parameters, spaces before base64, percent-escapes, whitespace and missing padding', () => {
    const bytes = Buffer.from('GIF89a and more');
    const b64 = bytes.toString('base64');
    expect(parseDataUrl(`data:image/gif;x=${'a'.repeat(100_000)};base64,${b64}`).bytes.equals(bytes)).to.equal(true);
    expect(parseDataUrl(`data:image/gif;base64,${b64.replace(/=+$/, '').replace(/.{3}/g, '$& \n')}`).bytes.equals(bytes)).to.equal(true);
    expect(parseDataUrl(`DATA:image/gif;   BASE64,%${b64.charCodeAt(0).toString(16)}${b64.slice(1)}`).bytes.equals(bytes)).to.equal(true);
    expect(parseDataUrl('data:,a%2Cb%zz').bytes.toString('latin1')).to.equal('a,b%zz');
    expect(parseDataUrl('data:text/plain;base64x,AAAA')).to.deep.include({ mediaType: 'text/plain;base64x' });
  });

  it('refuses what the standard\'s processor rejects', () => {
    expect(refusal(() => parseDataUrl('data:image/png;base64'))).to.match(/no comma/);
    expect(refusal(() => parseDataUrl('data:image/png;base64,A'))).to.match(/not valid base64/);
    expect(refusal(() => parseDataUrl('data:image/png;base64,AA*A'))).to.match(/not valid base64/);
    expect(refusal(() => parseDataUrl('http://x/,'))).to.match(/not a data: URI/);
  });
});
