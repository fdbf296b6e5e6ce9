#!/usr/bin/env node
/**
 * The rst2 command: a thin dispatcher over src/commands/. `rst2 serve` starts
 * the service; `rst2 html|pdf FILE` render one document with the same
 * engines and settings, without a server; `rst2 check PATH…` checks files
 * and folders with their project's configuration; `rst2 lsp` is a language
 * server. `rst2 --version` prints rst2's and docutils' versions, `rst2
 * COMMAND --help` a command's usage.
 *
 * Exit status of `check`, as ruff's: 0 nothing found; 1 problems found
 * (or left by --fix or --diff); 2 a usage or configuration error, or
 * anything else that kept the check from being made (a file that cannot
 * be read or written, an engine failure). Of html, pdf and serve: 0
 * success; 1 a document error or an engine failure; 2 a usage or
 * configuration error. A ServiceError's status comes from the error
 * catalogue (src/errors.ts).
 */
import { UsageError } from './commands/args.js';
import { check, CHECK_USAGE } from './commands/check.js';
import { lsp, LSP_USAGE } from './commands/lsp.js';
import { html, HTML_USAGE, pdf, PDF_USAGE } from './commands/render.js';
import { serve, SERVE_USAGE } from './commands/serve.js';
import { ConfigError } from './config.js';
import { exitStatus, ServiceError } from './errors.js';
import { readVersions } from './versions.js';

const COMMAND_USAGE: Readonly<Record<string, string>> = { serve: SERVE_USAGE, html: HTML_USAGE, pdf: PDF_USAGE, check: CHECK_USAGE, lsp: LSP_USAGE };

const firstLine = (usage: string): string => usage.split('\n', 1)[0]!;
const USAGE = [
  ...Object.values(COMMAND_USAGE).map((u, i) => (i === 0 ? firstLine(u) : firstLine(u).replace(/^usage: /, '       '))),
  '       rst2 --version',
  'rst2 COMMAND --help shows a command\'s options.',
].join('\n');

/** `rst2 0.1.0 (docutils 0.23)`. */
function version(): string {
  const versions = readVersions();
  return `rst2 ${versions.service} (docutils ${versions.engines.docutils ?? 'not built'})`;
}

/** Whether a command's arguments ask for its help (before any `--`). */
function asksHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

async function main(argv: string[]): Promise<number | undefined> {
  const [command, ...rest] = argv;
  if (command !== undefined && Object.hasOwn(COMMAND_USAGE, command) && asksHelp(rest)) {
    process.stdout.write(`${COMMAND_USAGE[command]}\n`);
    return 0;
  }
  switch (command) {
    case undefined:
    case 'serve':
      await serve(rest);
      return undefined;
    case 'html':
      return html(rest);
    case 'pdf':
      return pdf(rest);
    case 'check':
      return check(rest);
    case 'lsp':
      return lsp(rest);
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case '--version':
    case '-V':
      process.stdout.write(`${version()}\n`);
      return 0;
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}

const isCheck = process.argv[2] === 'check';

function usageOf(command: string | undefined): string {
  return command !== undefined && Object.hasOwn(COMMAND_USAGE, command) ? COMMAND_USAGE[command]! : USAGE;
}

function fail(message: string, status: number): void {
  process.stderr.write(`rst2: ${message}\n`);
  process.exitCode = status;
}

/** A coded failure: its exit status from the catalogue (check: always 2, the check was not made). */
function failWith(err: ServiceError): void {
  const status = isCheck ? 2 : exitStatus(err.code);
  // A wrong option value reads like the usage errors: `rst2: unknown style "x"; choose one of ...`; a message that starts with a path keeps it as it is.
  const message = exitStatus(err.code) === 2 && /^[A-Z][a-z]+ /.test(err.message) ? err.message.charAt(0).toLowerCase() + err.message.slice(1) : err.message;
  fail(message, status);
}

// A reader that stops early (`rst2 html doc.rst | head`) is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  fail(`cannot write to standard output: ${err.message}`, 1);
});

main(process.argv.slice(2)).then(
  (status) => {
    if (status !== undefined) process.exitCode = status;
  },
  (err: unknown) => {
    if (err instanceof UsageError) fail(`${err.message}\n${usageOf(process.argv[2])}`, 2);
    else if (err instanceof ConfigError) fail(err.message, 2);
    else if (err instanceof ServiceError) failWith(err);
    else if (process.argv[2] === 'serve' || process.argv[2] === undefined) fail(`cannot start: ${err instanceof Error ? err.message : String(err)}`, 1);
    else fail(err instanceof Error ? err.message : String(err), isCheck ? 2 : 1);
  },
);
