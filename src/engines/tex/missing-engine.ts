/**
 * Stands in for pdfTeX when its build (wasm/tex) is not installed: every PDF
 * request gets a clear 503 instead of a crash, and the rest of the API works.
 */
import { Code, ServiceError } from '../../errors.js';
import type { PdfEngine, Typeset } from './pdf-engine.js';

export class MissingPdfEngine implements PdfEngine {
  readonly available = false;

  constructor(private readonly reason: string) {}

  async start(): Promise<void> {}

  async compile(): Promise<Buffer> {
    throw new ServiceError(Code.pdf_unavailable, `PDF rendering is not available on this server: ${this.reason}`, { retryAfterSeconds: 3600 });
  }

  async typeset(): Promise<Typeset> {
    return { pdf: await this.compile(), lostCharacters: 0 };
  }

  stats(): undefined {
    return undefined;
  }

  typesetStats(): undefined {
    return undefined;
  }

  async formatsIdle(): Promise<void> {}

  async close(): Promise<void> {}
}
