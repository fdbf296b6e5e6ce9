/**
 * CPython's documentation as a project that adopts `rst2 check` (issue 28,
 * "Measure"): the 497 pages of Python 3.11's documentation sources, checked
 * as a folder with a config that names CPython's own roles and directives,
 * against Debian's rstcheck on the same files with the same names ignored,
 * in the same run.
 *
 * Corpus: Debian bookworm's `python3.11-doc`, downloaded and unpacked into
 * the cache (test/support/debian.ts, nothing installed); its
 * `usr/share/doc/python3.11/html/_sources/**\/*.rst.txt` are copied to a
 * scratch folder outside the repository as `.rst`. Debian ships neither
 * CPython's `Doc/conf.py` nor `Doc/tools/extensions`, so the names they
 * define are declared in an `rst2.toml` the bench writes into that folder
 * (CPYTHON_ROLES and CPYTHON_DIRECTIVES below, each with where it comes
 * from).
 *
 * Timed, interleaved in each round so that the machine's load falls on all
 * alike (median over --runs rounds, default 3):
 *  - rst2 folder: `rst2 check . --config rst2.toml --format json`, both
 *    engine workers (RST2_WORKERS=2); the problems left, by rule;
 *  - rstcheck: Debian bookworm's rstcheck 6.1 (and its Python dependencies,
 *    unpacked into the cache the same way) under Debian's /usr/bin/python3:
 *    `rstcheck --config NONE -r .` with --ignore-roles, --ignore-directives
 *    and --ignore-substitutions. Debian's rstcheck runs without Sphinx (its
 *    package does not pull Sphinx in), so it knows none of Sphinx's standard
 *    names either: it is given those rst2's `sphinx` dialect knows (read from
 *    python/rst2/dialects/sphinx with the bundle's docutils) besides
 *    CPython's, but not the names docutils itself has (except `class`, which
 *    Sphinx makes Python's), nor code-block/sourcecode, whose code rstcheck
 *    checks itself. rstcheck checks the files in a process pool of one per
 *    CPU, so it too has both cores; an ignored directive is dropped with its
 *    content unparsed, which rst2 checks;
 *  - rst2 before (unless --no-before): the issue's "before" figure, the 497
 *    files listed on the command line with `--dialect sphinx`, no config
 *    (`--isolated`, where the CLI has it), text output;
 *  - rst2 start-up: `rst2 check` of one short page with the config, what a
 *    run costs before it checks anything;
 *  - rst2's engine under Debian's CPython: python/rst2's check on the same
 *    files and options, one process, no Pyodide (the bundle's docutils);
 *  - rst2 folder without the rules that read the source: the same run with
 *    `--select` of the docutils and rst2 families' default rules (issue 29's
 *    baseline: those rules may cost at most 1.2 times that);
 *  - with --one-worker, also the folder with RST2_WORKERS=1.
 *
 * Each is timed from spawn to exit (wall) and, with GNU time, by the CPU it
 * and its children used: the machine may be shared, and a run on two
 * workers loses more to other work than rstcheck on one core does.
 *
 * Goal (issue 28): rst2 folder / rstcheck ≤ 1 with both workers busy.
 *
 * usage: npm run bench:cpython-docs [-- --runs N] [--no-before] [--one-worker] [--keep]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { paths, projectRoot } from '../src/paths.js';
import { API_FAMILIES, RULES } from '../src/rules.js';
import { unpackedPackages } from '../test/support/debian.js';
import { benchArgs, fmt, median, nativeBundleEnv } from './support.js';

/**
 * The roles CPython 3.11's documentation defines beyond Sphinx's, found by
 * `rst2 check --dialect sphinx` on the 497 pages (every "unknown role" was
 * one of these) and each checked against CPython's sources:
 */
const CPYTHON_ROLES = [
  'issue', // Doc/tools/extensions/pyspecific.py: issue_role (bugs.python.org)
  'gh', // pyspecific.py: gh_issue_role (GitHub issues)
  'source', // pyspecific.py in 3.11: source_role; later CPython makes it an extlinks key of Doc/conf.py, with pypi
  'opcode', // pyspecific.py: app.add_object_type('opcode', 'opcode', ...), the role of the opcode directive
  'pdbcmd', // pyspecific.py: app.add_object_type('pdbcommand', 'pdbcmd', ...), the role of the pdbcommand directive
  '2to3fixer', // pyspecific.py in 3.11: app.add_object_type('2to3fixer', '2to3fixer', ...); found only once the 2to3fixer directive was declared (library/2to3.rst)
] as const;

/** The directives, found and checked the same way. */
const CPYTHON_DIRECTIVES = [
  'availability', // pyspecific.py: Availability
  'audit-event', // pyspecific.py: AuditEvent
  'audit-event-table', // pyspecific.py: AuditEventListDirective
  'impl-detail', // pyspecific.py: ImplementationDetail
  'deprecated-removed', // pyspecific.py: DeprecatedRemoved
  'opcode', // pyspecific.py: add_object_type('opcode', ...)
  'pdbcommand', // pyspecific.py: add_object_type('pdbcommand', ...)
  '2to3fixer', // pyspecific.py in 3.11: add_object_type('2to3fixer', ...) (the fixers on library/2to3.rst)
  'coroutinefunction', // pyspecific.py: add_directive_to_domain('py', ..., PyCoroutineFunction)
  'coroutinemethod', // pyspecific.py: PyCoroutineMethod
  'awaitablefunction', // pyspecific.py: PyAwaitableFunction
  'awaitablemethod', // pyspecific.py: PyAwaitableMethod
  'abstractmethod', // pyspecific.py: PyAbstractMethod
  'miscnews', // pyspecific.py: MiscNews (inserts Misc/NEWS; no content)
  'limited-api-list', // Doc/tools/extensions/c_annotations.py: LimitedAPIList (no content)
] as const;

/**
 * Directives whose content is not reStructuredText: none of CPython's. All
 * the directives above parse their content as reStructuredText (or have
 * none), so rst2 keeps checking it; CPython's literal blocks (productionlist,
 * doctest, testcode...) are Sphinx's, which the dialect already knows.
 */
const CPYTHON_LITERAL_DIRECTIVES: readonly string[] = [];

/** Sphinx's default substitutions, which rst2's sphinx dialect defines and rstcheck does not know. */
const SPHINX_SUBSTITUTIONS = ['version', 'release', 'today'];

/** Debian bookworm's rstcheck 6.1 and what its Python part needs (Depends, recursively; Python 3.11 has the rest). */
const RSTCHECK_PACKAGES = [
  'rstcheck',
  'python3-rstcheck',
  'python3-docutils',
  'docutils-common',
  'python3-roman',
  'python3-pydantic',
  'python3-typer',
  'python3-click',
  'python3-colorama',
  'python3-typing-extensions',
  'python3-typeshed',
];

const CLI = path.join(projectRoot, 'dist', 'src', 'cli.js');
const SOURCES = 'usr/share/doc/python3.11/html/_sources';

interface Run {
  ms: number;
  /** User + system CPU of the command and its children (its worker threads, rstcheck's compilers), when GNU time is there. */
  cpuMs?: number;
  stdout: string;
  stderr: string;
}

// GNU time gives the CPU a command used: on a machine shared with other work the wall time
// depends on the load, the CPU much less.
const GNU_TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Runs a command to its end; exit 0 or 1 (problems found) is a result, anything else stops the bench. */
function timed(what: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Run {
  const cpuFile = GNU_TIME ? path.join(os.tmpdir(), `rst2-bench-cpu-${process.pid}`) : undefined;
  const [run, runArgs] = GNU_TIME ? [GNU_TIME, ['-f', '%U %S', '-o', cpuFile!, command, ...args]] : [command, args];
  const started = performance.now();
  const r = spawnSync(run, runArgs, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - started;
  if (r.error) throw new Error(`${what}: ${r.error.message}`);
  if (r.status !== 0 && r.status !== 1) throw new Error(`${what}: exit ${r.status ?? r.signal}\n${(r.stderr || r.stdout).slice(-2000)}`);
  let cpuMs: number | undefined;
  if (cpuFile) {
    // The last line: GNU time writes "Command exited with non-zero status 1" before it.
    const last = fs.readFileSync(cpuFile, 'utf8').trim().split('\n').pop()!;
    const [user, sys] = last.split(' ').map(Number);
    if (Number.isFinite(user) && Number.isFinite(sys)) cpuMs = (user! + sys!) * 1000;
    fs.rmSync(cpuFile, { force: true });
  }
  return { ms, cpuMs, stdout: r.stdout, stderr: r.stderr };
}

/** The corpus in a fresh scratch folder: each `X.rst.txt` as `X.rst`. */
function corpusFolder(): { dir: string; files: string[] } {
  const unpacked = unpackedPackages(['bookworm'], ['python3.11-doc']).get('python3.11-doc')!;
  const base = path.join(unpacked, SOURCES);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-cpython-docs-'));
  const files: string[] = [];
  for (const entry of fs.readdirSync(base, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.rst.txt')) continue;
    const rel = path.relative(base, path.join(entry.parentPath, entry.name)).slice(0, -'.txt'.length);
    fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
    fs.copyFileSync(path.join(entry.parentPath, entry.name), path.join(dir, rel));
    files.push(rel);
  }
  return { dir, files: files.sort() };
}

const tomlList = (names: readonly string[]) => `[${names.map((n) => JSON.stringify(n)).join(', ')}]`;

function writeConfig(dir: string): string {
  const file = path.join(dir, 'rst2.toml');
  fs.writeFileSync(
    file,
    [
      '# Written by bench/cpython-docs.ts: the names CPython 3.11 defines in Doc/conf.py and Doc/tools/extensions.',
      'dialect = "sphinx"',
      `roles = ${tomlList(CPYTHON_ROLES)}`,
      `directives = ${tomlList(CPYTHON_DIRECTIVES)}`,
      `literal-directives = ${tomlList(CPYTHON_LITERAL_DIRECTIVES)}`,
      '',
    ].join('\n'),
  );
  return file;
}

/** The roles and directives rst2's sphinx dialect knows that docutils does not (Debian's CPython, the bundle's docutils). */
function sphinxNames(): { roles: string[]; directives: string[] } {
  const script = [
    'import json',
    'from docutils.parsers.rst import directives as D, roles as R',
    'from rst2.dialects.sphinx import SphinxDialect as S',
    // class: Sphinx's is Python's class, docutils' sets a class attribute and refuses a signature.
    'own = {"class"}',
    'skip = {"code-block", "sourcecode"}  # rstcheck checks their code itself',
    'roles = sorted(n for n in S.roles if n not in R._role_registry or n in own)',
    'dirs = sorted(n for n in S.directives if (n not in D._directive_registry or n in own) and n not in skip)',
    'print(json.dumps({"roles": roles, "directives": dirs}))',
  ].join('\n');
  const r = spawnSync('/usr/bin/python3', ['-c', script], { env: nativeBundleEnv(paths.pythonBundle, [paths.pythonSources]), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`reading the sphinx dialect's names failed:\n${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout) as { roles: string[]; directives: string[] };
}

function rstcheckCommand(): { args: string[]; env: NodeJS.ProcessEnv } {
  const dirs = unpackedPackages(['bookworm'], RSTCHECK_PACKAGES);
  const pythonPath = [...dirs.values()].map((d) => path.join(d, 'usr', 'lib', 'python3', 'dist-packages')).filter((d) => fs.existsSync(d));
  const script = path.join(dirs.get('rstcheck')!, 'usr', 'bin', 'rstcheck');
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONNOUSERSITE: '1', PYTHONPATH: pythonPath.join(':') };
  const version = spawnSync('/usr/bin/python3', [script, '--version'], { env, encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`Debian's rstcheck does not start:\n${version.stderr.slice(-2000)}`);
  return { args: [script], env };
}

interface Problems {
  total: number;
  byKind: Map<string, number>;
}

function countBy(keys: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const k of keys) out.set(k, (out.get(k) ?? 0) + 1);
  return new Map([...out].sort((a, b) => b[1] - a[1]));
}

interface JsonProblem {
  file: string;
  line?: number;
  rule?: string;
  type?: string;
  message: string;
}

/** rst2's JSON: the problems by rule, and the unknown names left (a typo, or a name CPython defines that the list misses). */
function rst2Problems(stdout: string): Problems & { items: JsonProblem[] } {
  const items = JSON.parse(stdout) as JsonProblem[];
  return { total: items.length, byKind: countBy(items.map((p) => p.rule ?? '(no rule)')), items };
}

// FILE:LINE[:COL]: severity: message — the text format before and after columns and rule names.
const TEXT_PROBLEM = /^.+?:\d+(?::\d+)?: (?:severe|error|warning|info): /;

function rst2TextProblems(stdout: string): Problems {
  const lines = stdout.split('\n').filter((l) => TEXT_PROBLEM.test(l));
  const kind = (line: string) => /\[([a-z0-9-]+)\]\s*$/.exec(line)?.[1] ?? /Unknown (interpreted text role|directive type)/.exec(line)?.[1] ?? 'other';
  return { total: lines.length, byKind: countBy(lines.map(kind)) };
}

// rstcheck: FILE:LINE: (LEVEL/N) message, on stdout or stderr depending on the version.
const RSTCHECK_PROBLEM = /^(.+?):(\d+): \((INFO|WARNING|ERROR|SEVERE)\/\d\) (.*)$/;

function rstcheckProblems(run: Run): Problems & { messages: Map<string, number> } {
  const found = `${run.stdout}\n${run.stderr}`.split('\n').map((l) => RSTCHECK_PROBLEM.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  return {
    total: found.filter((m) => m[3] !== 'INFO').length,
    byKind: countBy(found.map((m) => m[3]!)),
    messages: countBy(found.filter((m) => m[3] !== 'INFO').map((m) => m[4]!.replace(/"[^"]*"/g, '"…"').slice(0, 90))),
  };
}

function isolatedFlag(dir: string, file: string): string[] {
  // The new CLI finds rst2.toml upward from each file: the "before" run must not.
  const r = spawnSync(process.execPath, [CLI, 'check', '--isolated', '--dialect', 'sphinx', file], { cwd: dir, encoding: 'utf8' });
  return r.status === 0 || r.status === 1 ? ['--isolated'] : [];
}

function show(kinds: Map<string, number>, limit = 12): string {
  const all = [...kinds];
  return all.slice(0, limit).map(([k, n]) => `${k} ${n}`).join(', ') + (all.length > limit ? `, … (${all.length - limit} more)` : '');
}

/**
 * rst2's engine (python/rst2, api.handle("check")) under Debian's CPython on
 * the bundle's docutils, one process, same files and options as the folder
 * run: what the checking costs without Pyodide, workers or the CLI.
 */
const NATIVE_ENGINE = `
import json, os, sys
from rst2 import api
options = sys.argv[1]
files = sorted(os.path.join(d, f) for d, _, names in os.walk(".") for f in names if f.endswith(".rst"))
found = 0
for name in files:
    with open(name, encoding="utf-8") as f:
        answer = json.loads(api.handle("check", f.read(), options))
    if not answer["ok"]:
        raise SystemExit("%s: %s" % (name, answer["message"]))
    found += len(answer["result"]["messages"])
print(json.dumps({"files": len(files), "problems": found}))
`;

interface Series {
  label: string;
  /** For the per-round line. */
  short: string;
  wall: number[];
  cpu: number[];
  note: () => string;
}

function series(label: string, short: string, note: () => string = () => ''): Series {
  return { label, short, wall: [], cpu: [], note };
}

function record(s: Series, run: Run): Run {
  s.wall.push(run.ms);
  if (run.cpuMs !== undefined) s.cpu.push(run.cpuMs);
  return run;
}

async function main(): Promise<void> {
  const args = benchArgs({ numbers: ['runs'], flags: ['no-before', 'one-worker', 'keep'] });
  const runs = args.number('runs', 3, { min: 1, whole: true });
  const { dir, files } = corpusFolder();
  try {
    const config = writeConfig(dir);
    const sphinx = sphinxNames();
    const rstcheck = rstcheckCommand();
    const ignoreRoles = [...new Set([...CPYTHON_ROLES, ...sphinx.roles])];
    const ignoreDirectives = [...new Set([...CPYTHON_DIRECTIVES, ...CPYTHON_LITERAL_DIRECTIVES, ...sphinx.directives])];
    const rstcheckArgs = [
      ...rstcheck.args,
      '--config',
      'NONE',
      '-r',
      '--ignore-roles',
      ignoreRoles.join(','),
      '--ignore-directives',
      ignoreDirectives.join(','),
      '--ignore-substitutions',
      SPHINX_SUBSTITUTIONS.join(','),
      '.',
    ];
    const env2: NodeJS.ProcessEnv = { ...process.env, RST2_WORKERS: '2' };
    delete env2.RST2_LOG_LEVEL;
    const env1 = { ...env2, RST2_WORKERS: '1' };
    const nativeEnv = nativeBundleEnv(paths.pythonBundle, [paths.pythonSources]);
    const nativeOptions = JSON.stringify({ dialect: 'sphinx', roles: CPYTHON_ROLES, directives: CPYTHON_DIRECTIVES, literal_directives: CPYTHON_LITERAL_DIRECTIVES });
    const folderArgs = [CLI, 'check', '.', '--config', config, '--format', 'json'];
    const beforeArgs = [CLI, 'check', ...isolatedFlag(dir, 'about.rst'), '--dialect', 'sphinx', ...files];
    const startArgs = [CLI, 'check', '--config', config, '--format', 'json', 'about.rst'];
    const docutilsOnly = RULES.filter((r) => r.default && API_FAMILIES.has(r.family)).map((r) => r.code);
    const noLintArgs = [...folderArgs, '--select', docutilsOnly.join(',')];

    process.stdout.write(
      `CPython 3.11 documentation (python3.11-doc, bookworm): ${files.length} pages in ${dir}\n` +
        `declared: ${CPYTHON_ROLES.length} roles, ${CPYTHON_DIRECTIVES.length} directives; rstcheck ignores ${ignoreRoles.length} roles, ${ignoreDirectives.length} directives, ${SPHINX_SUBSTITUTIONS.length} substitutions\n` +
        `${os.cpus().length} CPUs, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${runs} rounds\n`,
    );
    let folder: ReturnType<typeof rst2Problems> | undefined;
    let checked: ReturnType<typeof rstcheckProblems> | undefined;
    let before: Problems | undefined;
    let native: { files: number; problems: number } | undefined;
    const sFolder = series('rst2 check DIR --config F --format json, 2 workers', 'rst2 folder', () => `${folder!.total} problems: ${show(folder!.byKind)}`);
    const sRstcheck = series('rstcheck 6.1 -r, the same names ignored', 'rstcheck', () => `${checked!.total} problems (warning and above); by level: ${show(checked!.byKind)}`);
    const sBefore = series('before: rst2 check FILE… --dialect sphinx, no config', 'rst2 before', () => `${before!.total} problems: ${show(before!.byKind)}`);
    const sOne = series('rst2 check DIR --config F, 1 worker', 'rst2 folder 1 worker', () => `2 workers / 1: ${(median(sFolder.wall) / median(sOne.wall)).toFixed(2)}`);
    const sStart = series('start-up: rst2 check PAGE --config F (about.rst, 1 worker)', 'start-up', () => `${((100 * median(sStart.wall)) / median(sFolder.wall)).toFixed(0)}% of the folder run`);
    const sNoLint = series('rst2 folder, docutils and rst2 families only (--select)', 'rst2 folder without lint', () => `with lint / without: ${(median(sFolder.wall) / median(sNoLint.wall)).toFixed(2)} (goal ≤ 1.2)`);
    const sNative = series("rst2's engine under Debian's CPython, 1 process", 'native engine', () => `${native!.problems} problems; Pyodide run's CPU / this: ${(median(sFolder.cpu) / median(sNative.cpu)).toFixed(2)}`);
    for (let round = 0; round < runs; round++) {
      folder = rst2Problems(record(sFolder, timed('rst2 check (folder)', process.execPath, folderArgs, dir, env2)).stdout);
      checked = rstcheckProblems(record(sRstcheck, timed('rstcheck', '/usr/bin/python3', rstcheckArgs, dir, rstcheck.env)));
      if (!args.has('no-before')) before = rst2TextProblems(record(sBefore, timed('rst2 check (files, no config)', process.execPath, beforeArgs, dir, env2)).stdout);
      record(sNoLint, timed('rst2 check (folder, no lint)', process.execPath, noLintArgs, dir, env2));
      record(sStart, timed('rst2 check (one page)', process.execPath, startArgs, dir, env2));
      native = JSON.parse(record(sNative, timed("rst2's engine, native", '/usr/bin/python3', ['-c', NATIVE_ENGINE, nativeOptions], dir, nativeEnv)).stdout) as { files: number; problems: number };
      if (args.has('one-worker')) record(sOne, timed('rst2 check (folder, 1 worker)', process.execPath, folderArgs, dir, env1));
      const done = [sFolder, sNoLint, sRstcheck, sBefore, sStart, sNative, sOne].filter((s) => s.wall.length > round);
      process.stdout.write(`round ${round + 1}: ${done.map((s) => `${s.short} ${fmt(s.wall[round]! / 1000)} s`).join('; ')}; load ${os.loadavg()[0]!.toFixed(1)}\n`);
    }

    const sec = (values: number[]) => (values.length ? `${fmt(median(values) / 1000)} s` : '-');
    const rows = [sFolder, sNoLint, sRstcheck, sBefore, sOne, sNative, sStart].filter((s) => s.wall.length);
    process.stdout.write(`\n| run | wall (median) | CPU (median) | notes |\n|---|---:|---:|---|\n${rows.map((s) => `| ${s.label} | ${sec(s.wall)} | ${sec(s.cpu)} | ${s.note()} |`).join('\n')}\n`);
    const ratio = median(sFolder.wall) / median(sRstcheck.wall);
    process.stdout.write(`\nrst2 folder / rstcheck, wall: ${ratio.toFixed(2)} (goal ≤ 1: ${ratio <= 1 ? 'met' : 'missed'})`);
    if (sFolder.cpu.length && sRstcheck.cpu.length) process.stdout.write(`; CPU: ${(median(sFolder.cpu) / median(sRstcheck.cpu)).toFixed(2)}`);
    if (sBefore.wall.length) process.stdout.write(`\nbefore / rstcheck, wall: ${(median(sBefore.wall) / median(sRstcheck.wall)).toFixed(2)}; folder / before: ${(median(sFolder.wall) / median(sBefore.wall)).toFixed(2)}`);
    process.stdout.write('\n\nrst2, problems left:\n');
    for (const p of folder!.items) process.stdout.write(`  ${p.file}:${p.line ?? '?'}: [${p.rule ?? '?'}] ${p.message.split('\n')[0]!.slice(0, 140)}\n`);
    process.stdout.write(`\nrstcheck, problems (warning and above) by message:\n${[...checked!.messages].map(([m, n]) => `  ${String(n).padStart(4)}  ${m}`).join('\n')}\n`);
  } finally {
    if (args.has('keep')) process.stdout.write(`\nkept ${dir}\n`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
