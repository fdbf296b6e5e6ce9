/**
 * The size of a Pyodide interpreter's WebAssembly memory. It only ever grows
 * (wasm has no way to give memory back), so it is what a worker holds from
 * its largest render on, whatever Python has freed since.
 */
import type { PyodideAPI } from 'pyodide';

// Pyodide does not declare its Emscripten module on the public API; HEAP8 is
// re-made over the new buffer whenever the memory grows, so it is read anew.
interface WithModule {
  _module?: { HEAP8?: { buffer: ArrayBufferLike } };
}

export function wasmHeapBytes(py: PyodideAPI): number {
  const heap = (py as unknown as WithModule)._module?.HEAP8;
  if (!heap) throw new Error('this Pyodide does not expose its wasm memory (_module.HEAP8)');
  return heap.buffer.byteLength;
}
