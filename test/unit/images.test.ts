/**
 * The parts of src/images/ that decide before anything is fetched or
 * decoded: where an image may come from (sources.ts), what its bytes are and
 * how large its header says it is (sniff.ts), and the PNGs we write.
 */
import { expect } from 'chai';

import { ImageRefused } from '../../src/images/problems.js';
import { encodePng } from '../../src/images/png-encode.js';
import { checkPixels, sniff } from '../../src/images/sniff.js';
import { imageSource } from '../../src/images/sources.js';
import { checkEmbeddedImages } from '../../src/images/svg-embedded.js';
import { badge, gif, jpegImage, png, pngClaiming, svgWithImage, webp } from '../support/images.js';

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(ImageRefused);
    return (error as ImageRefused).reason;
  }
  return expect.fail('expected ImageRefused');
}

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
    expect(sniff(png(60, 30))).to.deep.equal({ format: 'png', width: 60, height: 30 });
    expect(sniff(jpegImage(64, 32))).to.deep.equal({ format: 'jpeg', width: 64, height: 32 });
    expect(sniff(gif(40, 20))).to.deep.equal({ format: 'gif', width: 40, height: 20 });
    expect(sniff(webp(50, 25))).to.deep.equal({ format: 'webp', width: 50, height: 25 });
    expect(sniff(Buffer.from('%PDF-1.5\n%...'))).to.deep.equal({ format: 'pdf' });
    expect(sniff(Buffer.from(badge('a', 'b')))).to.deep.equal({ format: 'svg' });
    expect(sniff(Buffer.from('\uFEFF  <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg width="1" height="1"/>'))).to.deep.equal({ format: 'svg' });
  });

  it('reads a bomb\'s claimed size from its header, and refuses it before decoding', () => {
    const claimed = sniff(pngClaiming(100_000, 100_000));
    expect(claimed).to.deep.equal({ format: 'png', width: 100_000, height: 100_000 });
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
    expect(sniff(opaque)).to.deep.equal({ format: 'png', width: 2, height: 1 });
    expect(opaque[25]).to.equal(2); // colour type RGB
    expect(opaque.includes(Buffer.from('pHYs'))).to.equal(true);
    const perMetre = opaque.readUInt32BE(opaque.indexOf(Buffer.from('pHYs')) + 4);
    expect(perMetre).to.equal(Math.round(144 / 0.0254));
    const clear = encodePng(1, 1, new Uint8Array([0, 0, 0, 0]));
    expect(clear[25]).to.equal(6); // colour type RGBA
  });
});
