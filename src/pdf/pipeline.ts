/**
 * A PDF request, top to bottom: what happens between a render-cache miss
 * (renderer.ts, for the routes and the command line alike) and the PDF
 * that is served.
 *
 * 1. LaTeX: docutils writes the document as LaTeX (python/rst2, in the
 *    Pyodide pool), with the list of its images in document order.
 * 2. Images: each is taken from its data: URI or fetched through the
 *    guarded fetcher, recognised by its bytes and converted where pdfTeX
 *    needs it (src/images/); one that cannot be had becomes a placeholder
 *    and a problem, never a failure of the document.
 * 3. Typesetting: pdfTeX in a worker thread (src/engines/tex/), from the
 *    preamble format that fits, with the image files next to the LaTeX.
 * 4. Safety check: before it answers, that worker reads every object of
 *    the PDF and refuses one that carries active content (safety.ts:
 *    `422 pdf_unsafe`). It runs there, off the main thread, so that every
 *    PDF pdfTeX makes is checked (routes, command line and /health alike).
 * 5. Retry: a damaged image that passed our checks can still make pdfTeX
 *    stop with an error, crash its engine, or bring active content in
 *    (a PDF image). The document is then typeset again without the images
 *    pdfTeX named in its error (up to twice; then without any), which
 *    become placeholders. A document whose own LaTeX fails is typeset once
 *    more without its images before its error is reported.
 * 6. The rendering: the PDF, named after the title, with counts of the
 *    images and characters replaced; `transient` when a placeholder may not
 *    be needed next time (a timeout, an upstream 5xx), so it is not cached.
 */
import type { Rendering } from '../cache/render-cache.js';
import type { Document } from '../documents/document.js';
import { asDialect } from '../dialects.js';
import { Code, ServiceError, type ErrorCode } from '../errors.js';
import type { LatexOptions, PythonEngine } from '../engines/python/engine.js';
import type { LatexResult } from '../engines/python/protocol.js';
import type { PdfEngine, Typeset } from '../engines/tex/pdf-engine.js';
import type { ImageProblem } from '../images/problems.js';
import type { ImageRef, ImageResolver, ResolvedImages } from '../images/resolve-images.js';
import type { Logger } from '../log.js';
import { fileName, option, RENDERED_TYPE, type ProblemReport, type RenderOptions } from '../rendering.js';

export interface PdfDeps {
  python: PythonEngine;
  pdf: PdfEngine;
  /** Fetches and prepares the images of PDF documents; without it, every image is a placeholder. */
  images?: ImageResolver;
  /** Where replaced characters are reported (absent: not logged). */
  log?: Logger;
}

export interface PdfRendering {
  rendering: Rendering;
  /** A placeholder may not be needed next time: serve the PDF, do not keep it. */
  transient: boolean;
}

export async function renderPdf(deps: PdfDeps, options: RenderOptions, doc: Document, report: ProblemReport): Promise<PdfRendering> {
  // 1. LaTeX
  const latex = await deps.python.renderLatex(doc.text, latexOptions(options));
  // 2. Images
  const resolved = await resolveImages(deps.images, latex.images, doc.base);
  // 3, 4 and 5. Typesetting, the safety check (in the TeX worker), retry
  const { typeset, problems } = await typesetWithRetry(deps.pdf, latex, resolved);
  // 6. The rendering
  for (const problem of problems) report(problem);
  return { rendering: pdfRendering(latex, typeset, problems, deps.log), transient: problems.some((p) => p.transient) };
}

// ---------------------------------------------------------------- 1. LaTeX

function latexOptions(options: RenderOptions): LatexOptions {
  return {
    documentClass: option(options, 'class'),
    style: option(options, 'style'),
    useLatexToc: option(options, 'use-latex-toc') === 'yes',
    // Present only when given and not `no` (options.ts keyedWhenGiven).
    tagged: options['tagged'] === 'yes',
    dialect: asDialect(option(options, 'dialect')),
  };
}

// ---------------------------------------------------------------- 2. images

const NO_IMAGES: ResolvedImages = { files: {}, problems: [] };

async function resolveImages(resolver: ImageResolver | undefined, images: readonly ImageRef[], base: string | undefined): Promise<ResolvedImages> {
  if (images.length === 0) return NO_IMAGES;
  if (resolver) return resolver.resolve(images, base);
  return { files: {}, problems: images.map((i) => ({ uri: i.uri, reason: 'images are not fetched here', transient: false })) };
}

// ---------------------------------------------------------------- 3, 4 and 5. typesetting, safety check, retry

// Failures an image file can cause (pdf_unsafe: a PDF image whose content
// our check missed, which would otherwise cost the whole document).
const RETRIED: ReadonlySet<ErrorCode> = new Set([Code.latex_failed, Code.pdf_failed, Code.engine_crashed, Code.pdf_unsafe]);

// Retries that leave out just the images pdfTeX named, before one without any.
const NAMED_RETRIES = 2;

async function typesetWithRetry(
  pdf: PdfEngine,
  latex: Pick<LatexResult, 'latex' | 'format_preamble' | 'images' | 'engine'>,
  resolved: ResolvedImages,
): Promise<{ typeset: Typeset; problems: ImageProblem[] }> {
  let files = { ...resolved.files };
  const problems = [...resolved.problems];
  const leaveOut = (names: readonly string[], reason: string): void => {
    for (const name of names) {
      delete files[name];
      // Image N of the LaTeX is rst2img-N.<ext> (python/rst2/latex_images.py).
      problems.push({ uri: latex.images[Number(/\d+/.exec(name)![0]) - 1]?.uri ?? name, reason, transient: false });
    }
  };
  for (let retries = 0; ; retries++) {
    try {
      // Typesetting and the safety check: both in the TeX worker (engines/tex/worker.ts).
      return { typeset: await pdf.typeset(latex.latex, latex.format_preamble, files, latex.engine), problems };
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

// ---------------------------------------------------------------- 6. the rendering

function pdfRendering(latex: LatexResult, typeset: Typeset, problems: readonly ImageProblem[], log: Logger | undefined): Rendering {
  const rendering: Rendering = { body: typeset.pdf, type: RENDERED_TYPE.pdf, filename: fileName(latex.title, 'pdf') };
  const replaced: NonNullable<Rendering['replaced']> = {};
  if (problems.length > 0) replaced.images = problems.length;
  // Placeholders Python put in, and any character pdfTeX still found no glyph for (engines/tex/lost-characters.ts).
  const characters = latex.replaced_characters + typeset.lostCharacters;
  if (characters > 0) {
    replaced.characters = characters;
    log?.info('characters replaced in a PDF', { count: characters, scripts: latex.scripts });
  }
  if (Object.keys(replaced).length > 0) rendering.replaced = replaced;
  return rendering;
}
