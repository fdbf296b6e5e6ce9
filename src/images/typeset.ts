/**
 * pdfTeX with a document's images next to it, and one way back should an
 * image break it: a damaged PNG, JPEG or PDF that passed our checks can
 * still make pdfTeX stop with an error or crash its engine. Then the
 * document is typeset once more without the images pdfTeX named in its
 * error (up to twice; then without any), which become placeholders: an
 * image never fails the document. A document whose own LaTeX fails is
 * typeset once more without its images before its error is reported.
 */
import { Code, ServiceError, type ErrorCode } from '../errors.js';
import type { PdfEngine } from '../engines/tex/pdf-engine.js';
import type { ImageProblem } from './problems.js';
import type { ImageRef, ResolvedImages } from './resolve-images.js';

// Failures an image file can cause (pdf_unsafe: a PDF image whose content
// our check missed, which would otherwise cost the whole document).
const RETRIED: ReadonlySet<ErrorCode> = new Set([Code.latex_failed, Code.pdf_failed, Code.engine_crashed, Code.pdf_unsafe]);

// Retries that leave out just the images pdfTeX named, before one without any.
const NAMED_RETRIES = 2;

export async function typesetWithImages(
  pdf: PdfEngine,
  latex: { latex: string; format_preamble: string | null },
  images: readonly ImageRef[],
  resolved: ResolvedImages,
): Promise<{ pdf: Buffer; lostCharacters: number; problems: ImageProblem[] }> {
  let files = { ...resolved.files };
  const problems = [...resolved.problems];
  const leaveOut = (names: readonly string[], reason: string): void => {
    for (const name of names) {
      delete files[name];
      problems.push({ uri: images[Number(/\d+/.exec(name)![0]) - 1]?.uri ?? name, reason, transient: false });
    }
  };
  for (let retries = 0; ; retries++) {
    try {
      const out = await pdf.typeset(latex.latex, latex.format_preamble, files);
      return { pdf: out.pdf, lostCharacters: out.lostCharacters, problems };
    } catch (error) {
      const names = Object.keys(files);
      if (names.length === 0 || !(error instanceof ServiceError) || !RETRIED.has(error.code)) throw error;
      const named = names.filter((name) => error.message.includes(name));
      if (named.length > 0 && retries < NAMED_RETRIES) {
        leaveOut(named, 'pdfTeX could not use the image (a damaged or unsupported file)');
      } else {
        leaveOut(names, 'left out because pdfTeX failed on the document with its images');
        files = {};
      }
    }
  }
}
