/**
 * `rst2 html`, `rst2 pdf` and `rst2 check`: the service's renderings on the
 * command line, through the same Renderer with the same engines and settings
 * but no HTTP server and no cache (one worker per engine, timeouts from the
 * environment as for the service).
 */
import fs from 'node:fs';

import { NO_CACHE } from '../cache/render-cache.js';
import { loadConfig } from '../config.js';
import { DEFAULT_DIALECT, DIALECTS } from '../dialects.js';
import { makeDocument } from '../documents/document.js';
import type { CheckItem } from '../engines/python/protocol.js';
import { MissingPdfEngine } from '../engines/tex/missing-engine.js';
import { createPdfEngine, createPythonEngine } from '../engines/create.js';
import type { PdfEngine } from '../engines/tex/pdf-engine.js';
import { Code, ServiceError } from '../errors.js';
import { createLogger, type Logger, type LogLevel } from '../log.js';
import { choose, OPTIONS, type OptionSpec } from '../options.js';
import { paths } from '../paths.js';
import type { ImageProblem } from '../images/problems.js';
import { imageResolverFor } from '../images/resolve-images.js';
import { Renderer } from '../renderer.js';
import type { RenderOperation, RenderOptions } from '../rendering.js';
import { loadCatalogue } from '../styles.js';
import { readVersions } from '../versions.js';
import { parseArgs, UsageError, type ArgSpec } from './args.js';

export const RENDER_USAGE = [
  'usage: rst2 html FILE [--style S] [--dialect D] [-o OUT]',
  '       rst2 pdf FILE [--class C] [--style S] [--toc] [--dialect D] [-o OUT]',
  '       rst2 check FILE [--format json|text] [--dialect D]',
  `FILE may be - for standard input. D is one of ${DIALECTS.join(', ')} (default ${DEFAULT_DIALECT}).`,
].join('\n');

// Show "starting engines..." only when the warm-up is noticeable.
const PROGRESS_AFTER_MS = 300;

interface Output {
  write(data: string | Buffer): Promise<void>;
}

const FORMAT: OptionSpec = { name: 'format', description: 'How check prints its findings.', values: () => ['text', 'json'], default: 'text', code: Code.unknown_format };

function oneFile(positionals: string[]): string {
  if (positionals.length === 0) throw new UsageError('missing FILE (use - for standard input)');
  if (positionals.length > 1) throw new UsageError(`one FILE only, got ${positionals.length}: ${positionals.join(' ')}`);
  return positionals[0]!;
}

async function readSource(file: string): Promise<string> {
  let bytes: Buffer;
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    bytes = Buffer.concat(chunks);
  } else {
    try {
      bytes = await fs.promises.readFile(file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new ServiceError(Code.unreadable, `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message}`);
    }
  }
  try {
    // The service refuses invalid UTF-8 rather than quietly replacing it; so does the CLI.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ServiceError(Code.invalid_utf8, `${file === '-' ? 'standard input' : file} is not valid UTF-8`);
  }
}

function writeStdout(data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(data, (err) => (err ? reject(err) : resolve()));
  });
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

function cliLogger(env: NodeJS.ProcessEnv): Logger {
  // Quiet unless asked: the engines' info lines are for the service's log.
  const level = (env.RST2_LOG_LEVEL ? loadConfig(env).logLevel : 'error') as LogLevel;
  return createLogger(level);
}

/** Starts the engines (pdfTeX only for a PDF), renders once through the Renderer, stops them. */
async function render(op: RenderOperation, options: RenderOptions, source: string): Promise<Buffer> {
  // A one-shot command would exit before a format it asked for is made.
  const config = { ...loadConfig(process.env), texFormatBytes: 0 };
  const log = cliLogger(process.env);
  const python = createPythonEngine(config, log, 1);
  const pdf: PdfEngine = op === 'pdf' ? await createPdfEngine(config, log, 1) : new MissingPdfEngine('not needed for this command.');
  const timer = setTimeout(() => process.stderr.write('rst2: starting engines...\n'), PROGRESS_AFTER_MS);
  try {
    await Promise.all([python.start(), pdf.start()]).finally(() => clearTimeout(timer));
    // A file on the command line has no URL: its relative images have nothing to resolve against.
    const images = imageResolverFor(config, NO_CACHE);
    const renderer = new Renderer({ python, pdf, cache: NO_CACHE, images, renderKeySalt: readVersions().renderKeySalt });
    const document = makeDocument(source);
    const report = (problem: ImageProblem): void => {
      process.stderr.write(`rst2: image ${problem.uri.slice(0, 300)}: ${problem.reason} (shown as a placeholder)\n`);
    };
    return (await renderer.render(renderer.key(op, options, document), op, options, document, report)).body;
  } finally {
    await Promise.allSettled([python.close(), pdf.close()]);
  }
}

const HTML_OPTIONS: Record<string, ArgSpec> = { style: { kind: 'value' }, dialect: { kind: 'value' }, output: { kind: 'value', short: 'o' } };
const PDF_OPTIONS: Record<string, ArgSpec> = {
  class: { kind: 'value' },
  style: { kind: 'value' },
  toc: { kind: 'flag' },
  dialect: { kind: 'value' },
  output: { kind: 'value', short: 'o' },
};
const CHECK_OPTIONS: Record<string, ArgSpec> = { format: { kind: 'value' }, dialect: { kind: 'value' } };

/** Returns the exit status. */
export async function html(args: string[]): Promise<number> {
  const parsed = parseArgs(args, HTML_OPTIONS);
  const file = oneFile(parsed.positionals);
  const catalogue = loadCatalogue(paths.styles);
  const options = { style: choose(OPTIONS.HtmlStyle, parsed.values.style, catalogue), dialect: choose(OPTIONS.Dialect, parsed.values.dialect, catalogue) };
  const source = await readSource(file);
  await outputTo(parsed.values.output).write(await render('html', options, source));
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
  };
  const output = parsed.values.output;
  if ((output === undefined || output === '-') && process.stdout.isTTY) {
    throw new UsageError('will not write a PDF to a terminal; name a file with -o OUT (or redirect standard output)');
  }
  const source = await readSource(file);
  await outputTo(output).write(await render('pdf', options, source));
  return 0;
}

export function formatCheck(file: string, items: readonly CheckItem[]): string {
  const name = file === '-' ? '<stdin>' : file;
  return items.map((i) => `${name}:${i.line ?? '?'}: ${i.type}: ${i.message}\n`).join('');
}

export async function check(args: string[]): Promise<number> {
  const parsed = parseArgs(args, CHECK_OPTIONS);
  const file = oneFile(parsed.positionals);
  const catalogue = loadCatalogue(paths.styles);
  const format = choose(FORMAT, parsed.values.format, catalogue);
  const options = { dialect: choose(OPTIONS.Dialect, parsed.values.dialect, catalogue) };
  const source = await readSource(file);
  const items = JSON.parse((await render('check', options, source)).toString('utf8')) as CheckItem[];
  await writeStdout(format === 'json' ? JSON.stringify(items, null, 2) + '\n' : formatCheck(file, items));
  return items.length > 0 ? 1 : 0;
}
