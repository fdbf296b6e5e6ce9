/**
 * `rst2 html`, `rst2 pdf` and `rst2 check`: the service's renderings on the
 * command line, with the same engines and settings but no HTTP server (one
 * worker per engine, timeouts from the environment as for the service).
 */
import fs from 'node:fs';

import { loadConfig, type Config } from '../config.js';
import { DEFAULT_DIALECT, DIALECTS } from '../dialects.js';
import type { PythonEngine } from '../engines/python/engine.js';
import type { CheckItem } from '../engines/python/protocol.js';
import { MissingPdfEngine } from '../engines/tex/missing-engine.js';
import { createPdfEngine, createPythonEngine } from '../engines/create.js';
import type { PdfEngine } from '../engines/tex/pdf-engine.js';
import { ServiceError } from '../http/errors.js';
import { createLogger, type Logger, type LogLevel } from '../log.js';
import { paths } from '../paths.js';
import { loadCatalogue } from '../styles.js';
import { parseArgs, UsageError, type OptionSpec } from './args.js';

export const RENDER_USAGE = [
  'usage: rst2 html FILE [--style S] [--dialect D] [-o OUT]',
  '       rst2 pdf FILE [--class C] [--style S] [--toc] [--dialect D] [-o OUT]',
  '       rst2 check FILE [--format json|text] [--dialect D]',
  `FILE may be - for standard input. D is one of ${DIALECTS.join(', ')} (default ${DEFAULT_DIALECT}).`,
].join('\n');

/** An option value outside the allowed names: reported with the valid ones, exit 2. */
export class ChoiceError extends Error {
  override name = 'ChoiceError';
}

// Show "starting engines..." only when the warm-up is noticeable.
const PROGRESS_AFTER_MS = 300;

interface Output {
  write(data: string | Buffer): Promise<void>;
}

function chosen(value: string | undefined, what: string, allowed: readonly string[], fallback: string): string {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) throw new ChoiceError(`unknown ${what} ${JSON.stringify(value)}; choose one of ${allowed.join(', ')}`);
  return value;
}

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
      throw new ServiceError(400, 'unreadable', `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message}`);
    }
  }
  try {
    // The service refuses invalid UTF-8 rather than quietly replacing it; so does the CLI.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ServiceError(400, 'invalid_utf8', `${file === '-' ? 'standard input' : file} is not valid UTF-8`);
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
        throw new ServiceError(500, 'unwritable', `cannot write ${out}: ${(err as Error).message}`);
      }
    },
  };
}

function cliLogger(env: NodeJS.ProcessEnv): Logger {
  // Quiet unless asked: the engines' info lines are for the service's log.
  const level = (env.RST2_LOG_LEVEL ? loadConfig(env).logLevel : 'error') as LogLevel;
  return createLogger(level);
}

interface Engines {
  python: PythonEngine;
  pdf: PdfEngine;
  close(): Promise<void>;
}

async function startEngines(config: Config, log: Logger, needPdf: boolean): Promise<Engines> {
  const python = createPythonEngine(config, log, 1);
  const pdf: PdfEngine = needPdf ? await createPdfEngine(config, log, 1) : new MissingPdfEngine('not needed for this command.');
  const close = async () => {
    await Promise.allSettled([python.close(), pdf.close()]);
  };
  const timer = setTimeout(() => process.stderr.write('rst2: starting engines...\n'), PROGRESS_AFTER_MS);
  try {
    await Promise.all([python.start(), pdf.start()]);
  } catch (err) {
    await close();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return { python, pdf, close };
}

async function withEngines<T>(needPdf: boolean, run: (engines: Engines) => Promise<T>): Promise<T> {
  // A one-shot command would exit before a format it asked for is made.
  const config = { ...loadConfig(process.env), texFormatBytes: 0 };
  const engines = await startEngines(config, cliLogger(process.env), needPdf);
  try {
    return await run(engines);
  } finally {
    await engines.close();
  }
}

const HTML_OPTIONS: Record<string, OptionSpec> = { style: { kind: 'value' }, dialect: { kind: 'value' }, output: { kind: 'value', short: 'o' } };
const PDF_OPTIONS: Record<string, OptionSpec> = {
  class: { kind: 'value' },
  style: { kind: 'value' },
  toc: { kind: 'flag' },
  dialect: { kind: 'value' },
  output: { kind: 'value', short: 'o' },
};
const CHECK_OPTIONS: Record<string, OptionSpec> = { format: { kind: 'value' }, dialect: { kind: 'value' } };

const dialectOf = (values: Record<string, string>) => chosen(values.dialect, 'dialect', DIALECTS, DEFAULT_DIALECT);

/** Returns the exit status. */
export async function html(args: string[]): Promise<number> {
  const parsed = parseArgs(args, HTML_OPTIONS);
  const file = oneFile(parsed.positionals);
  const catalogue = loadCatalogue(paths.styles);
  const style = chosen(parsed.values.style, 'style', catalogue.htmlStyles, 'default');
  const dialect = dialectOf(parsed.values);
  const source = await readSource(file);
  const out = await withEngines(false, (e) => e.python.renderHtml(source, style, dialect));
  await outputTo(parsed.values.output).write(out.html);
  return 0;
}

export async function pdf(args: string[]): Promise<number> {
  const parsed = parseArgs(args, PDF_OPTIONS);
  const file = oneFile(parsed.positionals);
  const catalogue = loadCatalogue(paths.styles);
  const documentClass = chosen(parsed.values.class, 'class', catalogue.latexClasses, 'article');
  const style = chosen(parsed.values.style, 'style', catalogue.latexStyles, 'default');
  const dialect = dialectOf(parsed.values);
  const output = parsed.values.output;
  if ((output === undefined || output === '-') && process.stdout.isTTY) {
    throw new UsageError('will not write a PDF to a terminal; name a file with -o OUT (or redirect standard output)');
  }
  const source = await readSource(file);
  const made = await withEngines(true, async (e) => {
    const latex = await e.python.renderLatex(source, { documentClass, style, useLatexToc: parsed.flags.has('toc'), dialect });
    return e.pdf.compile(latex.latex, latex.format_preamble);
  });
  await outputTo(output).write(made);
  return 0;
}

export function formatCheck(file: string, items: readonly CheckItem[]): string {
  const name = file === '-' ? '<stdin>' : file;
  return items.map((i) => `${name}:${i.line ?? '?'}: ${i.type}: ${i.message}\n`).join('');
}

export async function check(args: string[]): Promise<number> {
  const parsed = parseArgs(args, CHECK_OPTIONS);
  const file = oneFile(parsed.positionals);
  const format = chosen(parsed.values.format, 'format', ['text', 'json'], 'text');
  const dialect = dialectOf(parsed.values);
  const source = await readSource(file);
  const items = await withEngines(false, (e) => e.python.check(source, dialect));
  await writeStdout(format === 'json' ? JSON.stringify(items, null, 2) + '\n' : formatCheck(file, items));
  return items.length > 0 ? 1 : 0;
}
