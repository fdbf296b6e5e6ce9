/**
 * pdfTeX with a document's images next to it, and one way back should an
 * image break it: a damaged PNG, JPEG or PDF that passed our checks can
 * still make pdfTeX stop with an error or crash its engine. Then the
 * document is typeset once more without the images pdfTeX named in its
 * error (without all of them when it named none), which become
 * placeholders: an image never fails the document.
 */
import { Code, ServiceError, type ErrorCode } from '../errors.js';
import type { PdfEngine } from '../engines/tex/pdf-engine.js';
import type { ImageProblem } from './problems.js';
import type { ImageRef, ResolvedImages } from './resolve-images.js';

// Failures an image file can cause (pdf_unsafe: a PDF image whose content
// our check missed, which would otherwise cost the whole document).
const RETRIED: ReadonlySet<ErrorCode> = new Set([Code.latex_failed, Code.pdf_failed, Code.engine_crashed, Code.pdf_unsafe]);
const FILE_NAME = /rst2img-(\d+)\.(?:png|jpg|pdf)/g;

export async function typesetWithImages(
  pdf: PdfEngine,
  latex: { latex: string; format_preamble: string | null },
  images: readonly ImageRef[],
  resolved: ResolvedImages,
): Promise<{ pdf: Buffer; problems: ImageProblem[] }> {
  const names = Object.keys(resolved.files);
  try {
    return { pdf: await pdf.compile(latex.latex, latex.format_preamble, resolved.files), problems: resolved.problems };
  } catch (error) {
    if (names.length === 0 || !(error instanceof ServiceError) || !RETRIED.has(error.code)) throw error;
    const named = new Set([...error.message.matchAll(FILE_NAME)].map((m) => m[0]));
    const dropped = names.filter((name) => named.size === 0 || named.has(name));
    const kept = Object.fromEntries(Object.entries(resolved.files).filter(([name]) => !dropped.includes(name)));
    const problems = [
      ...resolved.problems,
      ...dropped.map((name): ImageProblem => ({
        uri: images[Number(/\d+/.exec(name)![0]) - 1]?.uri ?? name,
        reason: named.size
          ? 'pdfTeX could not use the image (a damaged or unsupported file)'
          : 'left out because pdfTeX failed on the document with its images',
        transient: false,
      })),
    ];
    return { pdf: await pdf.compile(latex.latex, latex.format_preamble, kept), problems };
  }
}
