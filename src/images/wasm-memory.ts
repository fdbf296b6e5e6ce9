/**
 * A ceiling on a WebAssembly module's own memory. resvg's module declares
 * a memory with no maximum, so a drawing may grow it to the 4 GiB of
 * wasm32, and that memory is never given back while its thread lives.
 * Written into the module's memory section before it is compiled, the
 * maximum makes an allocation past it fail inside the module (a trap the
 * converter answers with a placeholder, and its thread is replaced), so no
 * SVG can take more than that, whatever it found to grow.
 */

const PAGE = 65536;
const MEMORY_SECTION = 5;

function readLeb(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined || shift > 28) throw new Error('a damaged WebAssembly module (LEB128)');
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(byte & 0x80)) return { value, next: at };
  }
}

function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

/** `module` with the maximum of its one (32-bit, unshared) memory lowered to `maxBytes` (whole pages, at least its minimum). */
export function capWasmMemory(module: Uint8Array, maxBytes: number): Uint8Array {
  let at = 8; // magic and version
  while (at < module.length) {
    const id = module[at]!;
    const size = readLeb(module, at + 1);
    const start = size.next;
    const end = start + size.value;
    if (id === MEMORY_SECTION) {
      const count = readLeb(module, start);
      const flags = module[count.next];
      if (count.value !== 1 || (flags !== 0 && flags !== 1)) throw new Error('a WebAssembly memory section this cap does not know (shared, 64-bit or several)');
      const min = readLeb(module, count.next + 1);
      const declared = flags === 1 ? readLeb(module, min.next).value : Infinity;
      const max = Math.max(min.value, Math.min(declared, Math.floor(maxBytes / PAGE)));
      const body = [...leb(1), 0x01, ...leb(min.value), ...leb(max)];
      return Buffer.concat([module.subarray(0, at), Buffer.from([id, ...leb(body.length), ...body]), module.subarray(end)]);
    }
    at = end;
  }
  throw new Error('the WebAssembly module has no memory of its own to cap');
}
