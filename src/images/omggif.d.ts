// omggif ships no types; this is the part of its API src/images/convert.ts (reader) and the tests (writer) use.
declare module 'omggif' {
  export class GifReader {
    constructor(buffer: Uint8Array);
    readonly width: number;
    readonly height: number;
    numFrames(): number;
    decodeAndBlitFrameRGBA(frame: number, pixels: Uint8Array): void;
  }
  export class GifWriter {
    constructor(buffer: Uint8Array, width: number, height: number, options?: { palette?: number[]; loop?: number });
    addFrame(x: number, y: number, width: number, height: number, indexed: number[], options?: { palette?: number[]; delay?: number }): number;
    end(): number;
  }
}
