/**
 * `rst2 lsp`: the language server (src/lsp/server.ts) on standard input and
 * output, with one Python worker configured from the environment as for the
 * other commands. Standard output is the protocol's alone: the log goes to
 * standard error (level RST2_LOG_LEVEL, default warn), and so does anything
 * printed with console.log. When its input cannot be read as messages it
 * says why there, in one plain line, whatever the log level, and exits 1.
 */
import { loadConfig } from '../config.js';
import { DIALECTS, type Dialect } from '../dialects.js';
import { createPythonEngine } from '../engines/create.js';
import { createLogger, type LogLevel } from '../log.js';
import { LanguageServer } from '../lsp/server.js';
import { parseArgs, UsageError } from './args.js';

/** One worker: an editor checks one document at a time as it is typed in; the server queues the rest. */
const WORKERS = 1;

export const LSP_USAGE = `usage: rst2 lsp [--stdio] [--dialect D]   (a language server on standard input and output)`;

export async function lsp(args: string[]): Promise<undefined> {
  // --stdio is what many clients pass to say how to talk; it is the only way here.
  // --clientProcessId: the process to outlive no longer, read by vscode-languageserver itself.
  const parsed = parseArgs(args, { stdio: { kind: 'flag' }, dialect: { kind: 'value' }, clientProcessId: { kind: 'value' } });
  if (parsed.positionals.length > 0) throw new UsageError(`unknown argument ${JSON.stringify(parsed.positionals[0])}`);
  // No --dialect: the project's config or conf.py chooses, else docutils (the server's default).
  const dialect = parsed.values.dialect;
  const known: readonly string[] = DIALECTS;
  if (dialect !== undefined && !known.includes(dialect)) throw new UsageError(`unknown dialect ${JSON.stringify(dialect)}; choose one of ${DIALECTS.join(', ')}`);
  const config = loadConfig(process.env);
  const log = createLogger((process.env.RST2_LOG_LEVEL ? config.logLevel : 'warn') as LogLevel);
  console.log = console.info = console.debug = console.error;
  const server = new LanguageServer({
    input: process.stdin,
    output: process.stdout,
    engine: () => createPythonEngine(config, log.child({ component: 'lsp' }), WORKERS),
    workers: WORKERS,
    log,
    ...(dialect === undefined ? {} : { defaultDialect: dialect as Dialect }),
    exit: (status, reason) => {
      if (reason !== undefined) process.stderr.write(`rst2 lsp: ${reason}\n`);
      process.exit(status);
    },
  });
  server.listen();
  return undefined;
}
