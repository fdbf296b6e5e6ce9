/**
 * PNG files written with Node's own zlib (native, fast), for the images we
 * convert. An image without transparency is written as RGB: pdfTeX copies
 * such a PNG's data into the PDF as it is, where an alpha channel would
 * make it decode the picture and compress it again in WebAssembly.
 */
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data, CRC. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0);
  return Buffer.concat([head, data, crc]);
}

function opaque(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

/**
 * A PNG of `width` × `height` straight (not premultiplied) RGBA pixels;
 * `dpi` goes into a pHYs chunk, by which pdfTeX sizes the image.
 */
export function encodePng(width: number, height: number, rgba: Uint8Array, dpi = 72): Buffer {
  const channels = opaque(rgba) ? 3 : 4;
  const stride = width * channels + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    let at = y * stride + 1; // filter byte 0: none
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 4;
      raw[at++] = rgba[from]!;
      raw[at++] = rgba[from + 1]!;
      raw[at++] = rgba[from + 2]!;
      if (channels === 4) raw[at++] = rgba[from + 3]!;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = channels === 4 ? 6 : 2; // RGBA : RGB
  const perMetre = Math.round(dpi / 0.0254);
  const phys = Buffer.alloc(9);
  phys.writeUInt32BE(perMetre, 0);
  phys.writeUInt32BE(perMetre, 4);
  phys[8] = 1; // unit: metre
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('pHYs', phys),
    pngChunk('IDAT', zlib.deflateSync(raw)),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}
