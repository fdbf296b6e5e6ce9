#!/usr/bin/env node
/**
 * The rst2 command: a thin dispatcher over src/commands/. `rst2 serve` starts
 * the service; `rst2 html|pdf|check FILE` render one document with the same
 * engines and settings, without a server.
 *
 * Exit status: 0 success; 1 a document error (or `check` found something) or
 * an engine failure; 2 a usage or configuration error. A ServiceError's
 * status comes from the error catalogue (src/errors.ts).
 */
import { UsageError } from './commands/args.js';
import { lsp, LSP_USAGE } from './commands/lsp.js';
import { check, html, pdf, RENDER_USAGE } from './commands/render.js';
import { serve, SERVE_USAGE } from './commands/serve.js';
import { ConfigError } from './config.js';
import { exitStatus, ServiceError } from './errors.js';

const USAGE = `${SERVE_USAGE}\n${RENDER_USAGE.replace(/^usage: /, '       ')}\n${LSP_USAGE.replace(/^usage: /, '       ')}`;

async function main(argv: string[]): Promise<number | undefined> {
  const [command, ...rest] = argv;
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
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}

function fail(message: string, status: number): void {
  process.stderr.write(`rst2: ${message}\n`);
  process.exitCode = status;
}

/** A coded failure: its exit status from the catalogue. */
function failWith(err: ServiceError): void {
  const status = exitStatus(err.code);
  // A wrong option value reads like the usage errors: `rst2: unknown style "x"; choose one of ...`.
  fail(status === 2 ? err.message.charAt(0).toLowerCase() + err.message.slice(1) : err.message, status);
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
    if (err instanceof UsageError) fail(`${err.message}\n${USAGE}`, 2);
    else if (err instanceof ConfigError) fail(err.message, 2);
    else if (err instanceof ServiceError) failWith(err);
    else if (process.argv[2] === 'serve' || process.argv[2] === undefined) fail(`cannot start: ${err instanceof Error ? err.message : String(err)}`, 1);
    else fail(err instanceof Error ? err.message : String(err), 1);
  },
);
