/**
 * The parts of src/images/ that decide before anything is fetched or
 * decoded: where an image may come from (sources.ts), what its bytes are and
 * how large its header says it is (sniff.ts), and the PNGs we write.
 */
import { expect } from 'chai';

import { refusal } from './support/refusal.js';
import { encodePng } from '../../src/images/png-encode.js';
import { checkPixels, checkSize, sniff } from '../../src/images/sniff.js';
import { imageSource } from '../../src/images/sources.js';
import { checkEmbeddedImages } from '../../src/images/svg-embedded.js';
import { gifWithFrames } from '../support/gif-lzw.js';
import { apng, badge, gif, jpegImage, jpegWithSecondFrame, png, pngClaiming, svgWithImage, webp, webpExtended } from '../support/images.js';

describe('image sources', () => {
  const base = 'https://example.org/project/README.rst';

  it('takes http(s) URLs as they are, and resolves relative paths against the document URL', () => {
    expect(imageSource('https://img.example/b.svg', undefined, 100)).to.deep.equal({ kind: 'url', url: 'https://img.example/b.svg' });
    expect(imageSource('docs/shot.png', base, 100)).to.deep.equal({ kind: 'url', url: 'https://example.org/project/docs/shot.png' });
    // Up and out of the folder is still a URL on the same server, never a file here.
    expect(imageSource('../../etc/passwd', base, 100)).to.deep.equal({ kind: 'url', url: 'https://example.org/etc/passwd' });
    // From the root or from a host, as a browser resolves them against the document's URL (as the HTML does).
    expect(imageSource('/etc/passwd', base, 100)).to.deep.equal({ kind: 'url', url: 'https://example.org/etc/passwd' });
    expect(imageSource('//cdn.example/badge.svg', base, 100)).to.deep.equal({ kind: 'url', url: 'https://cdn.example/badge.svg' });
  });

  it('decodes data: URIs, base64 or percent-encoded, within the byte limit', () => {
    const bytes = png(2, 2);
    const source = imageSource(`data:image/png;base64,${bytes.toString('base64')}`, undefined, 1000);
    expect(source.kind === 'data' && Buffer.from(source.bytes).equals(bytes)).to.equal(true);
    const svg = imageSource(`data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"/>')}`, undefined, 1000);
    expect(svg.kind === 'data' && Buffer.from(svg.bytes).toString()).to.equal('<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(refusal(() => imageSource(`data:image/png;base64,${Buffer.alloc(2000).toString('base64')}`, undefined, 1000))).to.match(/larger than the limit of 1000 bytes/);
    expect(refusal(() => imageSource('data:image/png;base64,not*base64', undefined, 1000))).to.match(/not valid base64/);
  });

  it('never names the service\'s files: absolute paths, file:, other schemes, relative paths without a base', () => {
    for (const uri of ['file:///etc/passwd', 'FILE:/etc/passwd', 'C:\\\\Windows\\\\win.ini', '\\\\server\\share\\x.png', 'ftp://example.org/x.png', 'javascript:alert(1)']) {
      expect(refusal(() => imageSource(uri, base, 100)), uri).to.match(/not an http\(s\) or data: URI/);
    }
    for (const uri of ['/etc/passwd', '//host/etc/passwd']) {
      expect(refusal(() => imageSource(uri, undefined, 100)), uri).to.match(/not an http\(s\) or data: URI/);
    }
    for (const uri of ['x.png', '../../etc/passwd', './a/b.svg']) {
      expect(refusal(() => imageSource(uri, undefined, 100)), uri).to.match(/relative path, and the document has no URL/);
    }
  });
});

describe('image sniffing', () => {
  it('knows each format by its bytes, with the size its header gives', () => {
    expect(sniff(png(60, 30))).to.deep.include({ format: 'png', width: 60, height: 30 });
    expect(sniff(jpegImage(64, 32))).to.deep.include({ format: 'jpeg', width: 64, height: 32, frames: [{ width: 64, height: 32 }] });
    expect(sniff(gif(40, 20))).to.deep.include({ format: 'gif', width: 40, height: 20, frames: [{ left: 0, top: 0, width: 40, height: 20 }] });
    expect(sniff(webp(50, 25))).to.deep.include({ format: 'webp', width: 50, height: 25 });
    expect(sniff(Buffer.from('%PDF-1.5\n%...'))).to.deep.equal({ format: 'pdf' });
    expect(sniff(Buffer.from(badge('a', 'b')))).to.deep.equal({ format: 'svg' });
    expect(sniff(Buffer.from('\uFEFF  <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg width="1" height="1"/>'))).to.deep.equal({ format: 'svg' });
  });

  it('reads a bomb\'s claimed size from its header, and refuses it before decoding', () => {
    const claimed = sniff(pngClaiming(100_000, 100_000));
    expect(claimed).to.deep.include({ format: 'png', width: 100_000, height: 100_000 });
    expect(refusal(() => checkPixels(claimed.width!, claimed.height!, 12_000_000))).to.match(/100000 × 100000 pixels, more than the limit/);
    expect(refusal(() => checkPixels(0, 10, 100))).to.match(/no pixels/);
  });

  it('refuses what is not an image it knows, and SVG with an internal DTD subset (entity expansion)', () => {
    expect(refusal(() => sniff(Buffer.from('<html><body>hello</body></html>')))).to.match(/not an image format/);
    expect(refusal(() => sniff(Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>')))).to.match(/not an image format/);
    expect(refusal(() => sniff(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])))).to.match(/PNG header is truncated/);
    expect(refusal(() => sniff(Buffer.from([0xff, 0xd8, 0xff, 0xd9])))).to.match(/JPEG header is truncated/);
  });
});

describe('every frame is sized before decoding (issue 19)', () => {
  const MAX = 12_000_000;
  const check = (bytes: Buffer) => refusal(() => checkSize(sniff(bytes), MAX));

  it('a GIF whose screen is 1 × 1 and whose first frame is 36000 × 36000 (480 KB of LZW runs) is refused by its frame', () => {
    const bomb = gifWithFrames(1, 1, [{ width: 36000, height: 36000 }]);
    expect(bomb.length).to.be.below(500_000);
    expect(sniff(bomb)).to.deep.include({ width: 1, height: 1 });
    expect(check(bomb)).to.equal('frame 1 of the GIF is 36000 × 36000 pixels, more than the limit of 12000000 pixels');
  });

  it('GIF: a later frame too large, a frame outside the screen, a frame past it by its position', () => {
    expect(check(gifWithFrames(100, 100, [{ width: 100, height: 100 }, { width: 4000, height: 4000 }]))).to.match(/^frame 2 of the GIF is 4000 × 4000 pixels/);
    expect(check(gifWithFrames(10, 10, [{ width: 200, height: 200 }]))).to.match(/frame 1 of the GIF \(200 × 200 at 0, 0\) lies outside its 10 × 10 canvas/);
    expect(check(gifWithFrames(100, 100, [{ width: 100, height: 100 }, { width: 50, height: 50, left: 60, top: 0 }]))).to.match(/frame 2 .* at 60, 0\) lies outside/);
    // Frames that fit pass; so do GIFs as omggif writes them.
    expect(() => checkSize(sniff(gifWithFrames(100, 100, [{ width: 100, height: 100 }, { width: 50, height: 50, left: 50, top: 50 }])), MAX)).to.not.throw();
    expect(() => checkSize(sniff(gif(40, 20)), MAX)).to.not.throw();
  });

  it('APNG frame control chunks, animated WebP frames and VP8X bitstreams, every JPEG frame header', () => {
    expect(check(apng(10, 10, [{ width: 10, height: 10 }, { width: 5000, height: 5000 }]))).to.match(/^frame 2 of the PNG is 5000 × 5000 pixels/);
    expect(check(apng(10, 10, [{ width: 10, height: 10, left: 5 }]))).to.match(/lies outside its 10 × 10 canvas/);
    expect(check(webpExtended(100, 100, [{ width: 100, height: 100 }, { width: 16000, height: 16000 }]))).to.match(/^frame 3 of the WEBP is 16000 × 16000 pixels/);
    expect(check(webpExtended(100, 100, [{ width: 60, height: 60, left: 50, top: 0 }]))).to.match(/at 50, 0\) lies outside its 100 × 100 canvas/);
    expect(check(webpExtended(10, 10, [{ width: 16000, height: 16000 }], true))).to.match(/16000 × 16000 pixels/);
    expect(check(jpegWithSecondFrame(60000, 60000))).to.match(/^frame 2 of the JPEG is 60000 × 60000 pixels/);
    for (const fine of [apng(10, 10, [{ width: 10, height: 10 }, { width: 4, height: 4, left: 6, top: 6 }]), webpExtended(100, 100, [{ width: 100, height: 100 }, { width: 50, height: 50, left: 50, top: 50 }]), webpExtended(30, 20, [{ width: 30, height: 20 }], true)]) {
      expect(() => checkSize(sniff(fine), MAX)).to.not.throw();
    }
  });
});

describe('images embedded in an SVG', () => {
  const bomb = pngClaiming(100_000, 100_000).toString('base64');
  const check = (svg: string) => refusal(() => checkEmbeddedImages(svg, 12_000_000));

  it('lets small embedded images through, at any of the ways resvg reads a data: URI', () => {
    const small = png(10, 10).toString('base64');
    for (const href of [`data:image/png;base64,${small}`, `data:image/png;base64,${small.replace(/.{4}/g, '$&\n ')}`, `data:image/svg+xml,${encodeURIComponent(svgWithImage(`data:image/png;base64,${small}`))}`]) {
      expect(() => checkEmbeddedImages(svgWithImage(href), 12_000_000)).to.not.throw();
    }
    expect(() => checkEmbeddedImages(badge('a', 'b'), 12_000_000)).to.not.throw();
    // The words in a chart's text are not a data: URI.
    expect(() => checkEmbeddedImages('<svg xmlns="http://www.w3.org/2000/svg"><text>data: 1, 2, 3</text></svg>', 12_000_000)).to.not.throw();
  });

  it('finds a bomb however its data: URI is written', () => {
    for (const href of [
      `data:image/png;base64,${bomb}`,
      `data:image/png;base64,${bomb.replace(/.{8}/g, '$&\n')}`,
      `data:image/png;base64,&#105;${bomb.slice(1)}`,
      `&#x64;ata:image/png;base64,${bomb}`,
      ` &#32;data:image/png;base64,${bomb}`,
      `DATA:image/png;BASE64,%69${bomb.slice(1)}`,
      `data:image/svg+xml;base64,${Buffer.from(svgWithImage(`data:image/png;base64,${bomb}`)).toString('base64')}`,
    ]) {
      expect(check(svgWithImage(href)), href.slice(0, 40)).to.match(/100000 × 100000 pixels/);
    }
  });

  it('reads a data: URI with a media type of any length, as resvg does (issue 19)', () => {
    const long = `image/png;x=${'a'.repeat(300)}`;
    expect(check(svgWithImage(`data:${long};base64,${bomb}`))).to.match(/100000 × 100000 pixels/);
    expect(check(svgWithImage(`data:${long};charset=%22x%22;base64,${bomb}`))).to.match(/100000 × 100000 pixels/);
    expect(check(svgWithImage(`data:image/png;${'p=1;'.repeat(20_000)}base64 ,${bomb}`))).to.match(/100000 × 100000 pixels/);
    expect(check(svgWithImage(`data:image/png;x=${'a'.repeat(300)};base64,${Buffer.from(svgWithImage(`data:image/png;y=${'b'.repeat(500)};base64,${bomb}`)).toString('base64')}`))).to.match(/100000 × 100000 pixels/);
    // A frame bomb in a GIF inside an SVG is sized by its frame.
    expect(check(svgWithImage(`data:image/gif;x=${'a'.repeat(300)};base64,${gifWithFrames(1, 1, [{ width: 36000, height: 36000 }]).toString('base64')}`))).to.match(/frame 1 of the GIF is 36000 × 36000/);
    // The entity and nesting checks reach SVGs behind long media types too.
    const entities = Buffer.from('<!DOCTYPE svg [<!ENTITY a "a">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>').toString('base64');
    expect(check(svgWithImage(`data:image/svg+xml;${'q'.repeat(400)};base64,${entities}`))).to.match(/service can check|entities/);
    let nested = `data:image/png;base64,${png(2, 2).toString('base64')}`;
    for (let i = 0; i < 5; i++) nested = `data:image/svg+xml;x=${'n'.repeat(300)};base64,${Buffer.from(svgWithImage(nested)).toString('base64')}`;
    expect(check(svgWithImage(nested))).to.match(/too deeply/);
  });

  it('fails closed on a data: URI the standard\'s processor rejects (no comma, bad base64)', () => {
    expect(check(svgWithImage(`data:image/png;${'x'.repeat(400)}`))).to.match(/cannot be read/);
    expect(check(svgWithImage('data:image/png;base64,A'))).to.match(/cannot be read.*base64/);
  });

  it('fails closed: unreadable data, entities, too many pixels together', () => {
    expect(check(svgWithImage(`data:image/png;base64,${bomb.slice(0, 20)}'${bomb.slice(20)}`))).to.match(/service can check|not valid base64/);
    expect(check(svgWithImage(`data:image/svg+xml,${encodeURIComponent('<!DOCTYPE svg [<!ENTITY a "a">]><svg>&a;</svg>')}`))).to.match(/service can check|entities/);
    const quarter = `data:image/png;base64,${pngClaiming(2000, 2000).toString('base64')}`;
    expect(check(svgWithImage(quarter).repeat(4))).to.match(/together/);
  });
});

describe('PNG writing', () => {
  it('writes opaque pixels as RGB and keeps transparency as RGBA, with the resolution given', () => {
    const opaque = encodePng(2, 1, new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255]), 144);
    expect(sniff(opaque)).to.deep.include({ format: 'png', width: 2, height: 1 });
    expect(opaque[25]).to.equal(2); // colour type RGB
    expect(opaque.includes(Buffer.from('pHYs'))).to.equal(true);
    const perMetre = opaque.readUInt32BE(opaque.indexOf(Buffer.from('pHYs')) + 4);
    expect(perMetre).to.equal(Math.round(144 / 0.0254));
    const clear = encodePng(1, 1, new Uint8Array([0, 0, 0, 0]));
    expect(clear[25]).to.equal(6); // colour type RGBA
  });
});
