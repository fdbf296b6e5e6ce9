/**
 * `rst2 html` and `rst2 pdf`: the service's renderings on the command line,
 * through the same Renderer with the same engines and settings but no HTTP
 * server and no cache (one worker per engine, timeouts from the environment
 * as for the service). `rst2 check` is check.ts.
 */
import fs from 'node:fs';

import { NO_CACHE } from '../cache/render-cache.js';
import { loadConfig } from '../config.js';
import { DEFAULT_DIALECT, DIALECTS } from '../dialects.js';
import { makeDocument } from '../documents/document.js';
import { MissingPdfEngine } from '../engines/tex/missing-engine.js';
import { createPdfEngine, createPythonEngine } from '../engines/create.js';
import type { PdfEngine } from '../engines/tex/pdf-engine.js';
import { Code, ServiceError } from '../errors.js';
import { choose, OPTIONS } from '../options.js';
import { paths } from '../paths.js';
import type { ImageProblem } from '../images/problems.js';
import { imageResolverFor } from '../images/resolve-images.js';
import { Renderer } from '../renderer.js';
import type { RenderOperation, RenderOptions } from '../rendering.js';
import { loadCatalogue } from '../styles.js';
import { readVersions } from '../versions.js';
import { parseArgs, UsageError, type ArgSpec } from './args.js';
import { readInput, writeStdout } from './files.js';
import { cliLogger } from './python-engine.js';

const FILE_NOTE = `FILE may be - for standard input. D is one of ${DIALECTS.join(', ')} (default ${DEFAULT_DIALECT}).`;

export const HTML_USAGE = `usage: rst2 html FILE [--style S] [--dialect D] [--parts | --fragment] [-o OUT]\n${FILE_NOTE} --parts writes docutils' publish_parts() names as JSON, --fragment the bare body.`;
export const PDF_USAGE = `usage: rst2 pdf FILE [--class C] [--style S] [--toc] [--tagged] [--dialect D] [-o OUT]\n${FILE_NOTE} --tagged makes a tagged PDF (PDF/UA-1).`;

// Show "starting engines..." only when the warm-up is noticeable.
const PROGRESS_AFTER_MS = 300;

interface Output {
  write(data: string | Buffer): Promise<void>;
}

function oneFile(positionals: string[]): string {
  if (positionals.length === 0) throw new UsageError('missing FILE (use - for standard input)');
  if (positionals.length > 1) throw new UsageError(`one FILE only, got ${positionals.length}: ${positionals.join(' ')}`);
  return positionals[0]!;
}

async function readSource(file: string): Promise<string> {
  return (await readInput(file)).text;
}

function outputTo(out: string | undefined): Output {
  if (out === undefined || out === '-') return { write: writeStdout };
  return {
    async write(data) {
      try {
        await fs.promises.writeFile(out, data);
      } catch (err) {
        throw new ServiceError(Code.unwritable, `cannot write ${out}: ${(err as Error).message}`);
      }
    },
  };
}


/** A rendering through the Renderer of engines that are running. */
type RenderWith = (op: RenderOperation, options: RenderOptions, source: string) => Promise<Buffer>;

/** Starts the engines (pdfTeX only for a PDF), lets `use` render through the Renderer, stops them. */
async function withEngines<T>(needsPdf: boolean, use: (render: RenderWith) => Promise<T>): Promise<T> {
  // A one-shot command would exit before a format it asked for is made.
  const config = { ...loadConfig(process.env), texFormatBytes: 0 };
  const log = cliLogger(process.env);
  const python = createPythonEngine(config, log, 1);
  const pdf: PdfEngine = needsPdf ? await createPdfEngine(config, log, 1) : new MissingPdfEngine('not needed for this command.');
  const timer = setTimeout(() => process.stderr.write('rst2: starting engines...\n'), PROGRESS_AFTER_MS);
  try {
    await Promise.all([python.start(), pdf.start()]).finally(() => clearTimeout(timer));
    // A file on the command line has no URL: its relative images have nothing to resolve against.
    const images = imageResolverFor(config, NO_CACHE);
    const renderer = new Renderer({ python, pdf, cache: NO_CACHE, images, renderKeySalt: readVersions().renderKeySalt });
    const report = (problem: ImageProblem): void => {
      process.stderr.write(`rst2: image ${problem.uri.slice(0, 300)}: ${problem.reason} (shown as a placeholder)\n`);
    };
    return await use(async (op, options, source) => {
      const document = makeDocument(source);
      return (await renderer.render(renderer.key(op, options, document), op, options, document, report)).body;
    });
  } finally {
    await Promise.allSettled([python.close(), pdf.close()]);
  }
}

/** Starts the engines, renders once, stops them. */
function render(op: RenderOperation, options: RenderOptions, source: string): Promise<Buffer> {
  return withEngines(op === 'pdf', (renderWith) => renderWith(op, options, source));
}

const HTML_OPTIONS: Record<string, ArgSpec> = {
  style: { kind: 'value' },
  dialect: { kind: 'value' },
  parts: { kind: 'flag' },
  fragment: { kind: 'flag' },
  output: { kind: 'value', short: 'o' },
};
const PDF_OPTIONS: Record<string, ArgSpec> = {
  class: { kind: 'value' },
  style: { kind: 'value' },
  toc: { kind: 'flag' },
  tagged: { kind: 'flag' },
  dialect: { kind: 'value' },
  output: { kind: 'value', short: 'o' },
};

/** Returns the exit status. */
export async function html(args: string[]): Promise<number> {
  const parsed = parseArgs(args, HTML_OPTIONS);
  const file = oneFile(parsed.positionals);
  const catalogue = loadCatalogue(paths.styles);
  if (parsed.flags.has('parts') && parsed.flags.has('fragment')) throw new UsageError('--parts and --fragment: one of them');
  const format = parsed.flags.has('parts') ? 'parts' : parsed.flags.has('fragment') ? 'fragment' : undefined;
  const options = {
    style: choose(OPTIONS.HtmlStyle, parsed.values.style, catalogue),
    dialect: choose(OPTIONS.Dialect, parsed.values.dialect, catalogue),
    // As the service: absent for the page (the format option is keyed only when given).
    ...(format === undefined ? {} : { format }),
  };
  const source = await readSource(file);
  const out = await render('html', options, source);
  // JSON ends with a newline on a terminal or in a file, as a text tool's output does.
  await outputTo(parsed.values.output).write(format === 'parts' ? Buffer.concat([out, Buffer.from('\n')]) : out);
  return 0;
}

export async function pdf(args: string[]): Promise<number> {
  const parsed = parseArgs(args, PDF_OPTIONS);
  const file = oneFile(parsed.positionals);
  const catalogue = loadCatalogue(paths.styles);
  const options = {
    class: choose(OPTIONS.LatexClass, parsed.values.class, catalogue),
    style: choose(OPTIONS.LatexStyle, parsed.values.style, catalogue),
    'use-latex-toc': parsed.flags.has('toc') ? 'yes' : 'no',
    dialect: choose(OPTIONS.Dialect, parsed.values.dialect, catalogue),
    // As the service: absent when untagged (the option is keyed only when given).
    ...(parsed.flags.has('tagged') ? { tagged: 'yes' } : {}),
  };
  const output = parsed.values.output;
  if ((output === undefined || output === '-') && process.stdout.isTTY) {
    throw new UsageError('will not write a PDF to a terminal; name a file with -o OUT (or redirect standard output)');
  }
  const source = await readSource(file);
  await outputTo(output).write(await render('pdf', options, source));
  return 0;
}
