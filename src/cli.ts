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
import fs from 'node:fs';
import path from 'node:path';

import { UsageError } from './commands/args.js';
import { ConfigError } from './config.js';
import { exitStatus, ServiceError } from './errors.js';
import { projectRoot } from './paths.js';
import { engineVersions } from './versions.js';

interface Command {
  /** The exit status; undefined for a command that runs until stopped (serve, lsp). */
  run: (args: string[]) => Promise<number | undefined>;
  usage: string;
}

// Each command is loaded when it runs: `rst2 check` does not pay for the service's Koa and Redis, nor the language server's library.
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  serve: async () => {
    const m = await import('./commands/serve.js');
    return { run: async (args) => (await m.serve(args), undefined), usage: m.SERVE_USAGE };
  },
  html: async () => {
    const m = await import('./commands/render.js');
    return { run: m.html, usage: m.HTML_USAGE };
  },
  pdf: async () => {
    const m = await import('./commands/render.js');
    return { run: m.pdf, usage: m.PDF_USAGE };
  },
  check: async () => {
    const m = await import('./commands/check.js');
    return { run: m.check, usage: m.CHECK_USAGE };
  },
  lsp: async () => {
    const m = await import('./commands/lsp.js');
    return { run: m.lsp, usage: m.LSP_USAGE };
  },
};

async function commandNamed(name: string | undefined): Promise<Command | undefined> {
  const load = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  return load === undefined ? undefined : load();
}

async function usage(): Promise<string> {
  const all = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  const firstLine = (u: string): string => u.split('\n', 1)[0]!;
  return [
    ...all.map((c, i) => (i === 0 ? firstLine(c.usage) : firstLine(c.usage).replace(/^usage: /, '       '))),
    '       rst2 --version',
    "rst2 COMMAND --help shows a command's options.",
  ].join('\n');
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** `rst2 0.1.0 (docutils 0.23)`: package.json's version and the docutils the Python bundle was built with (its manifest). */
function version(): string {
  const service = (readJson(path.join(projectRoot, 'package.json')) as { version?: string } | undefined)?.version ?? 'unknown';
  const docutils = engineVersions(readJson(path.join(projectRoot, 'wasm/python/manifest.json')), undefined).docutils;
  return `rst2 ${service} (docutils ${docutils ?? 'not built'})`;
}

/** Whether a command's arguments ask for its help (before any `--`). */
function asksHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

async function main(argv: string[]): Promise<number | undefined> {
  const [name, ...rest] = argv;
  switch (name) {
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${await usage()}\n`);
      return 0;
    case '--version':
    case '-V':
      process.stdout.write(`${version()}\n`);
      return 0;
  }
  const command = await commandNamed(name ?? 'serve');
  if (command === undefined) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  if (asksHelp(rest)) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  return command.run(rest);
}

const isCheck = process.argv[2] === 'check';

async function usageOf(name: string | undefined): Promise<string> {
  return (await commandNamed(name ?? 'serve'))?.usage ?? usage();
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
    if (err instanceof UsageError) {
      const message = err.message;
      void usageOf(process.argv[2]).then((u) => fail(`${message}\n${u}`, 2));
    } else if (err instanceof ConfigError) fail(err.message, 2);
    else if (err instanceof ServiceError) failWith(err);
    else if (process.argv[2] === 'serve' || process.argv[2] === undefined) fail(`cannot start: ${err instanceof Error ? err.message : String(err)}`, 1);
    else fail(err instanceof Error ? err.message : String(err), isCheck ? 2 : 1);
  },
);
