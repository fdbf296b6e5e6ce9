/** What the PDF pipeline needs from a TeX engine: LaTeX source in, PDF bytes out. */
export interface PdfEngine {
  start(): Promise<void>;
  compile(latex: string): Promise<Buffer>;
  close(): Promise<void>;
}
