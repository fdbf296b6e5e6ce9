/**
 * `rst2 check PATH…`: the files the PATHs stand for (project/walk.ts),
 * each checked with its project's settings (project/settings.ts: the
 * config file, its overrides, a Sphinx conf.py read by the engine) and the
 * command line's flags over them, on as many engine workers as there are
 * files and CPUs, printed in one of the formats of formats/ in the order
 * of the sorted paths. `--fix` and `--diff` (fix.ts) run the `fix`
 * operation with the same settings instead.
 *
 * Exit status: 0 nothing found, 1 problems found (or left by --fix), 2 the
 * check could not be made: a usage or configuration mistake, a file that
 * cannot be read or written, an engine failure.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Dialect } from '../dialects.js';
import type { CheckItem, FixResult } from '../engines/python/contract.js';
import type { PythonEngine } from '../engines/python/engine.js';
import { Code } from '../errors.js';
import { choose, OPTIONS, type OptionSpec } from '../options.js';
import { paths } from '../paths.js';
import { shownPath } from '../project/config-file.js';
import { isLineLength } from '../project/config-keys.js';
import { fileChoice, type FileChoice } from '../project/file-choice.js';
import type { RuleLayer } from '../project/rule-layers.js';
import { ProjectSettings, type FileSettings } from '../project/settings.js';
import { findSphinxConf, SphinxConfs } from '../project/sphinx-conf.js';
import { findFiles } from '../project/walk.js';
import { expandRule, ruleList } from '../rules.js';
import { loadCatalogue } from '../styles.js';
import { readVersions } from '../versions.js';
import { parseArgs, UsageError, type ArgSpec } from './args.js';
import { readInput, writeStdout, type Input } from './files.js';
import { fixFiles } from './fix.js';
import { FORMAT_NAMES, formatNamed, type FileReport, type FormatName } from './formats/index.js';
import { inOrder } from './in-order.js';
import { withPython } from './python-engine.js';

export const CHECK_USAGE = [
  'usage: rst2 check PATH... [--format text|json|github|sarif|junit] [--dialect D]',
  '                  [--select RULES] [--ignore RULES] [--extend-select RULES]',
  '                  [--line-length N] [--config FILE | --isolated] [--docs-url URL] [--tagged]',
  '       rst2 check --fix|--diff [--unsafe] [same options] PATH...',
  'PATH: a file (always checked), a folder (walked for *.rst and the extensions',
  'configured, skipping hidden folders, _build, node_modules and what .gitignore',
  'ignores), or - for standard input (alone). RULES: comma-separated rule codes,',
  'prefixes ending at a hyphen, ALL or DEFAULT. Exit status: 0 nothing found, 1 problems',
  'found, 2 usage, configuration or internal error. --tagged: the PDF is to be tagged',
  '(reports images without alt text, rule image-without-alt).',
].join('\n');

const CHECK_OPTIONS: Record<string, ArgSpec> = {
  format: { kind: 'value' },
  dialect: { kind: 'value' },
  fix: { kind: 'flag' },
  diff: { kind: 'flag' },
  unsafe: { kind: 'flag' },
  select: { kind: 'value' },
  ignore: { kind: 'value' },
  'extend-select': { kind: 'value' },
  config: { kind: 'value' },
  isolated: { kind: 'flag' },
  'docs-url': { kind: 'value' },
  'line-length': { kind: 'value' },
  tagged: { kind: 'flag' },
};

const FORMAT: OptionSpec = { name: 'format', description: 'How check prints its findings.', values: () => FORMAT_NAMES, default: 'text', code: Code.unknown_format };

const STDIN_NAME = '<stdin>';

/** The rules the command line chooses, each name checked now (an unknown one is exit 2 before any work). */
function commandLineRules(values: Record<string, string>): RuleLayer {
  const list = (name: string): string[] | undefined => {
    const value = values[name];
    if (value === undefined) return undefined;
    const names = ruleList(value);
    for (const n of names) expandRule(n);
    return names;
  };
  return { select: list('select'), ignore: list('ignore'), extendSelect: list('extend-select') };
}

/** Where each rule is explained: a service's manual when --docs-url names one, else the page beside this install. */
function rulePages(docsUrl: string | undefined): (code: string) => string {
  if (docsUrl !== undefined) {
    if (!/^https?:\/\//.test(docsUrl)) throw new UsageError(`--docs-url takes an http(s) URL, got ${JSON.stringify(docsUrl)}`);
    const base = new URL('rules.html', docsUrl.endsWith('/') ? docsUrl : `${docsUrl}/`).href;
    return (code) => `${base}#${code}`;
  }
  const file = pathToFileURL(path.join(paths.docs, 'rules.rst')).href;
  return (code) => `${file}#${code}`;
}

interface Job {
  input: Input;
  /** As printed. */
  name: string;
  settings: FileSettings;
  /** The Sphinx project's conf.py, if any. */
  confPy: string | undefined;
}

/** What the engine is asked with for one file: its project's choices, its conf.py's names, the flags over them. */
async function choiceFor(job: Job, dialectFlag: Dialect | undefined, cliRules: RuleLayer, confs: SphinxConfs, lineLength: number | undefined): Promise<FileChoice> {
  const sphinx = job.confPy === undefined ? undefined : await confs.names(job.confPy);
  return fileChoice(job.settings, sphinx, dialectFlag, cliRules, lineLength);
}

function checkArgs(args: string[]) {
  const parsed = parseArgs(args, CHECK_OPTIONS);
  const { positionals, flags, values } = parsed;
  if (positionals.length === 0) throw new UsageError('missing PATH (a file, a folder, or - for standard input)');
  if (positionals.length > 1 && positionals.includes('-')) throw new UsageError('- (standard input) must be the only PATH');
  if (flags.has('fix') && flags.has('diff')) throw new UsageError('choose --fix (rewrite the files) or --diff (show the changes), not both');
  const mode = flags.has('fix') ? ('fix' as const) : flags.has('diff') ? ('diff' as const) : undefined;
  if (mode === undefined && flags.has('unsafe')) throw new UsageError('--unsafe goes with --fix or --diff');
  if (flags.has('isolated') && values.config !== undefined) throw new UsageError('choose --config FILE or --isolated, not both');
  const catalogue = loadCatalogue(paths.styles);
  const format = choose(FORMAT, values.format, catalogue) as FormatName;
  if (mode !== undefined && values.format !== undefined && format !== 'text') throw new UsageError(`--format ${format} does not go with --fix or --diff, which print text`);
  const dialect = values.dialect === undefined ? undefined : (choose(OPTIONS.Dialect, values.dialect, catalogue) as Dialect);
  const given = values['line-length'];
  const lineLength = given === undefined ? undefined : /^\d{1,4}$/.test(given) ? Number(given) : NaN;
  if (lineLength !== undefined && !isLineLength(lineLength)) throw new UsageError(`--line-length takes a whole number of characters from 1 to 1000, got ${JSON.stringify(given)}`);
  return { positionals, flags, values, mode, format, dialect, lineLength, cliRules: commandLineRules(values), rulePage: rulePages(values['docs-url']) };
}

export async function check(args: string[]): Promise<number> {
  const a = checkArgs(args);
  const isolated = a.flags.has('isolated');
  const settings = new ProjectSettings({ configFile: a.values.config, isolated });
  const found = findFiles(a.positionals, settings, (message) => process.stderr.write(`rst2: warning: ${message}\n`));
  if (found.length === 0) process.stderr.write(`rst2: no files to check in ${a.positionals.join(' ')}\n`);
  // Every file is read before any is checked or changed: one that cannot be read stops the command with none touched.
  const jobs: Job[] = [];
  const confDirs = new Map<string, string | undefined>();
  for (const f of found) {
    const input = await readInput(f.shown);
    // Standard input stands for a file in the current folder: its config and conf.py are that folder's.
    const file = f.absolute === '-' ? path.join(process.cwd(), STDIN_NAME) : f.absolute;
    const fileSettings = settings.settingsFor(file);
    const dir = path.dirname(file);
    if (!isolated && !confDirs.has(dir)) confDirs.set(dir, findSphinxConf(dir, fileSettings.config?.root));
    jobs.push({ input, name: f.shown === '-' ? STDIN_NAME : f.shown, settings: fileSettings, confPy: isolated ? undefined : confDirs.get(dir) });
  }
  const format = formatNamed(a.format, { version: a.format === 'sarif' ? readVersions().service : '', rulePage: a.rulePage });
  if (jobs.length === 0) {
    if (format.all) await writeStdout(format.all([]));
    return 0;
  }
  return withPython(jobs.length, async (python, workers) => {
    const confs = new SphinxConfs(
      (source) => python.readConf(source),
      (file, line, message) => process.stderr.write(`rst2: ${shownPath(file)}${line === null ? '' : `:${line}`}: ${message}\n`),
    );
    const chosen = (job: Job) => choiceFor(job, a.dialect, a.cliRules, confs, a.lineLength);
    if (a.mode !== undefined) {
      const unsafe = a.flags.has('unsafe');
      const results = inOrder(jobs, workers, async (job): Promise<FixResult> => {
        const { dialect, project } = await chosen(job);
        return python.fix(job.input.text, dialect, unsafe, project);
      });
      return fixFiles(jobs.map((j) => j.input), a.mode, unsafe, results);
    }
    return report(jobs, workers, python, chosen, format, a.flags.has('tagged'));
  });
}

async function report(
  jobs: readonly Job[],
  workers: number,
  python: PythonEngine,
  chosen: (job: Job) => Promise<FileChoice>,
  format: ReturnType<typeof formatNamed>,
  tagged: boolean,
): Promise<number> {
  const results = inOrder(jobs, workers, async (job): Promise<CheckItem[]> => {
    const { dialect, project } = await chosen(job);
    // [] asks for no fixes: a format that does not show them does not pay for their trial parses.
    return python.check(job.input.text, dialect, tagged ? { ...project, tagged: true } : project, format.needsFixes ? undefined : []);
  });
  const reports: FileReport[] = [];
  let problems = 0;
  let failed = false;
  for (const [i, job] of jobs.entries()) {
    let items: CheckItem[];
    try {
      items = await results[i]!;
    } catch (err) {
      // One file the engine cannot check does not hide the others' problems; the exit status says it.
      process.stderr.write(`rst2: ${job.name}: cannot check: ${(err as Error).message}\n`);
      failed = true;
      continue;
    }
    const r: FileReport = { file: job.name, text: job.input.text, items };
    problems += items.length;
    if (format.each) await writeStdout(format.each(r));
    else reports.push(r);
  }
  if (format.all) await writeStdout(format.all(reports));
  return failed ? 2 : problems > 0 ? 1 : 0;
}
