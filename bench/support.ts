/** Small helpers shared by the benchmark scripts. */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { loadConfig, type Config } from '../src/config.js';
import { paths } from '../src/paths.js';
import { nativeBundleEnv as bundleEnv, writeDatadirRedirect } from '../test/support/debian.js';
import { createLogger, type Logger } from '../src/log.js';
import { startServer, type RunningServer } from '../src/server.js';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function fmt(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

/**
 * The environment for Debian's CPython (/usr/bin/python3) to run the
 * docutils and Pygments of the Python bundle, the versions the workers run
 * (test/support/debian.ts, shared with the conformance tests).
 */
export function nativeBundleEnv(bundlePath: string, extraPath: string[] = []): NodeJS.ProcessEnv {
  if (path.resolve(bundlePath) !== paths.pythonBundle) throw new Error(`nativeBundleEnv runs the project's bundle (${paths.pythonBundle}), not ${bundlePath}`);
  return bundleEnv(extraPath);
}

/** What the Python bundle held before docutils 0.23 (issue 20): Debian bookworm's packages. */
const BOOKWORM_DOCUTILS = ['python3-docutils', 'docutils-common', 'python3-roman', 'python3-pygments'];

/** A benchmark's folder under the set-up cache (RST2_CACHE_DIR), outside the checkout. */
export function benchCacheDir(name: string): string {
  return path.join(process.env.RST2_CACHE_DIR || path.join(os.homedir(), '.cache', 'rst2'), 'bench', name);
}

/**
 * The environment for Debian's CPython to run Debian bookworm's docutils
 * (0.19) and Pygments (2.14), the versions rst2 ran before docutils 0.23:
 * the .debs are downloaded through our own apt lists into the cache folder
 * and unpacked there, so nothing is installed on the machine. Null, with
 * the reason on stderr, when they cannot be had.
 */
export function bookwormDocutilsEnv(extraPath: string[] = []): NodeJS.ProcessEnv | null {
  const dir = benchCacheDir('docutils-bookworm');
  if (!fs.existsSync(path.join(dir, 'ready'))) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const aptPrivate = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/apt-private');
      execFileSync(aptPrivate, ['apt-get', 'download', ...BOOKWORM_DOCUTILS], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
      for (const deb of fs.readdirSync(dir).filter((f) => f.endsWith('.deb'))) execFileSync('dpkg', ['-x', path.join(dir, deb), dir]);
      writeDatadirRedirect(dir, "bookworm's docutils-common unpacked in the cache");
      fs.writeFileSync(path.join(dir, 'ready'), '');
    } catch (err) {
      process.stderr.write(`[bench] no docutils from bookworm: ${err instanceof Error ? err.message.slice(0, 300) : String(err)}\n`);
      return null;
    }
  }
  return { ...process.env, PYTHONPATH: [path.join(dir, 'boot'), path.join(dir, 'usr', 'lib', 'python3', 'dist-packages'), ...extraPath].join(':') };
}

/** Installs Debian packages the baselines need, when missing (root only). */
export function ensureDebianPackages(check: string, packages: string[]): void {
  if (fs.existsSync(check)) return;
  process.stderr.write(`[bench] installing ${packages.join(' ')} for the baseline\n`);
  const run = (args: string[]) => spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (run(['install', '-y', '--no-install-recommends', ...packages]).status !== 0) {
    run(['update']);
    if (run(['install', '-y', '--no-install-recommends', ...packages]).status !== 0) throw new Error(`cannot install ${packages.join(' ')}`);
  }
}

/**
 * The reStructuredText specification from Debian's docutils-doc (about 117 KB),
 * downloaded through our own apt lists into the cache folder and unpacked
 * there: no package of the machine is installed.
 */
export function specificationText(): string {
  const cache = benchCacheDir('docutils-doc');
  const base = path.join(cache, 'x', 'usr/share/doc/docutils-doc/docs/ref/rst/restructuredtext.txt');
  if (!fs.existsSync(base) && !fs.existsSync(`${base}.gz`)) {
    fs.mkdirSync(cache, { recursive: true });
    const aptPrivate = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/apt-private');
    execFileSync(aptPrivate, ['apt-get', 'download', 'docutils-doc'], { cwd: cache, stdio: ['ignore', 'ignore', 'inherit'] });
    const deb = fs.readdirSync(cache).find((f) => f.startsWith('docutils-doc_') && f.endsWith('.deb'));
    if (!deb) throw new Error('apt-get download docutils-doc produced no .deb');
    execFileSync('dpkg', ['-x', path.join(cache, deb), path.join(cache, 'x')]);
  }
  for (const file of [base, `${base}.gz`]) {
    if (fs.existsSync(file)) {
      return file.endsWith('.gz') ? execFileSync('gzip', ['-dc', file], { encoding: 'utf8' }) : fs.readFileSync(file, 'utf8');
    }
  }
  throw new Error('restructuredtext.txt not found in docutils-doc');
}

export function writeTemp(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/**
 * A benchmark's command-line options, read with node:util's parseArgs:
 * `--name value` for numbers and strings, `--name` for flags. An option the
 * benchmark does not know stops it, rather than being silently ignored.
 */
export function benchArgs(spec: { numbers?: readonly string[]; strings?: readonly string[]; flags?: readonly string[]; positionals?: number }) {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const name of [...(spec.numbers ?? []), ...(spec.strings ?? [])]) options[name] = { type: 'string' };
  for (const name of spec.flags ?? []) options[name] = { type: 'boolean' };
  const { values, positionals } = parseArgs({ options, strict: true, allowPositionals: (spec.positionals ?? 0) > 0 });
  if (positionals.length > (spec.positionals ?? 0)) throw new Error(`at most ${spec.positionals ?? 0} arguments besides the options, got ${positionals.length}`);
  return {
    positionals,
    /** The number given, or the fallback; `min` and `whole` are checked. */
    number(name: string, fallback: number, check: { min?: number; whole?: boolean } = {}): number {
      const raw = values[name];
      if (typeof raw !== 'string') return fallback;
      const value = Number(raw);
      const { min = 0, whole = false } = check;
      if (!Number.isFinite(value) || value < min || (whole && !Number.isInteger(value))) {
        throw new Error(`--${name} takes a ${whole ? 'whole ' : ''}number of at least ${min}, got ${JSON.stringify(raw)}`);
      }
      return value;
    },
    string(name: string, fallback: string): string {
      const raw = values[name];
      return typeof raw === 'string' ? raw : fallback;
    },
    /** A flag, or a value option, was given. */
    has(name: string): boolean {
      return values[name] !== undefined && values[name] !== false;
    },
  };
}

/** The settings of a benchmark's in-process server: loopback, port 0, 2 Pyodide workers, a fresh data folder, quiet; `env` overrides. */
export function benchConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    RST2_WORKERS: '2',
    RST2_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-')),
    RST2_LOG_LEVEL: 'silent',
    ...env,
  });
}

/** The service in this process with benchConfig(env); close() stops it and removes its data folder. */
export async function startInProcess(env: Record<string, string> = {}, log?: Logger): Promise<RunningServer & { config: Config }> {
  const config = benchConfig(env);
  const server = await startServer(config, log ?? createLogger(config.logLevel));
  return {
    ...server,
    config,
    async close(graceMs?: number) {
      await server.close(graceMs);
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
