/**
 * GIFs whose frames are far larger than their files, written from the
 * GIF89a specification (section 22, LZW with variable-length codes, and
 * appendix F): one colour, coded as runs. After a clear code, each code
 * emitted is the one about to be defined (the "KwKwK" case), so code n
 * stands for a run one longer than the last; once the table is full (4095)
 * the longest run is repeated without a clear code, 12 bits for about 4,090
 * pixels. A 36000 × 36000 frame takes under 500 KB.
 */

/** Bits, least significant first, as GIF packs its codes. */
class CodeWriter {
  private readonly bytes: number[] = [];
  private acc = 0;
  private bits = 0;
  write(code: number, width: number): void {
    this.acc |= code << this.bits;
    this.bits += width;
    while (this.bits >= 8) {
      this.bytes.push(this.acc & 0xff);
      this.acc >>>= 8;
      this.bits -= 8;
    }
  }
  done(): Buffer {
    if (this.bits > 0) this.bytes.push(this.acc & 0xff);
    return Buffer.from(this.bytes);
  }
}

const MIN_CODE_SIZE = 2;

/** The LZW code stream for `pixels` pixels of colour 0, as data sub-blocks after the minimum code size. */
export function lzwRun(pixels: number): Buffer {
  const clear = 1 << MIN_CODE_SIZE;
  const out = new CodeWriter();
  let width = MIN_CODE_SIZE + 1;
  let next = clear + 2;
  // The decoder adds an entry for every code after the first, and widens codes when the table fills the width.
  const added = (): void => {
    if (next >= 4096) return;
    next++;
    if (next >= 1 << width && width < 12) width++;
  };
  out.write(clear, width);
  out.write(0, width);
  let left = pixels - 1;
  let last = 1; // pixels the last code stood for
  while (left > 0) {
    if (next < 4096 && left >= last + 1) {
      out.write(next, width); // not yet defined: the last run plus one pixel
      left -= ++last;
      added();
    } else if (next >= 4096 && left >= last) {
      out.write(4095, width);
      left -= last;
    } else if (left >= 2 && left + clear < next) {
      out.write(left + clear, width); // code c is a run of c - clear pixels
      left = 0;
      added();
    } else {
      out.write(0, width);
      left -= 1;
      added();
    }
  }
  out.write(clear + 1, width); // end of information
  const data = out.done();
  const blocks: Buffer[] = [Buffer.from([MIN_CODE_SIZE])];
  for (let at = 0; at < data.length; at += 255) {
    const block = data.subarray(at, at + 255);
    blocks.push(Buffer.from([block.length]), block);
  }
  blocks.push(Buffer.from([0]));
  return Buffer.concat(blocks);
}

export interface GifFrame {
  width: number;
  height: number;
  left?: number;
  top?: number;
}

const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};

/** A GIF89a with a logical screen of `width` × `height` and the given frames, each one colour, LZW-coded as runs. */
export function gifWithFrames(width: number, height: number, frames: readonly GifFrame[]): Buffer {
  const parts: Buffer[] = [
    Buffer.from('GIF89a'),
    u16(width),
    u16(height),
    Buffer.from([0x81, 0, 0]), // a global colour table of 4 entries
    Buffer.from([0x20, 0xc0, 0x20, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0]),
  ];
  for (const f of frames) {
    parts.push(Buffer.from([0x2c]), u16(f.left ?? 0), u16(f.top ?? 0), u16(f.width), u16(f.height), Buffer.from([0]), lzwRun(f.width * f.height));
  }
  parts.push(Buffer.from([0x3b]));
  return Buffer.concat(parts);
}
