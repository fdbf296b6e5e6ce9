// omggif ships no types; this is the part of its API src/images/convert.ts uses.
declare module 'omggif' {
  export class GifReader {
    constructor(buffer: Uint8Array);
    readonly width: number;
    readonly height: number;
    numFrames(): number;
    decodeAndBlitFrameRGBA(frame: number, pixels: Uint8Array): void;
  }
}
