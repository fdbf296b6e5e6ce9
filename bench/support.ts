/** Small helpers shared by the benchmark scripts. */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

/** The reStructuredText specification from Debian's docutils-doc (about 117 KB). */
export function specificationText(): string {
  const candidates = ['/usr/share/doc/docutils-doc/docs/ref/rst/restructuredtext.txt', '/usr/share/doc/docutils-doc/docs/ref/rst/restructuredtext.txt.gz'];
  ensureDebianPackages(candidates[0]!, ['docutils-doc']);
  for (const file of candidates) {
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
