/**
 * Seed documents for the fuzzer: docutils' own documents, fetched once into
 * an ignored cache (~/.cache/rst2/fuzz-seeds, or $RST2_CACHE_DIR/fuzz-seeds),
 * plus a small set kept in the repository (bench/fuzz-seeds/) so the fuzzer
 * works even where Debian's repositories cannot be reached.
 *
 * Sources, best first:
 *  1. the docutils source package (its test/functional/input documents are
 *     written to exercise every construct): `apt-get source --download-only`;
 *  2. Debian's docutils-doc, installed (/usr/share/doc/docutils-doc);
 *  3. docutils-doc fetched with `apt-get download` and unpacked with dpkg-deb.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

import { projectRoot } from '../src/paths.js';

export interface Seed {
  name: string;
  text: string;
}

interface Manifest {
  source: string;
  files: number;
  made: string;
}

/** After a failed fetch, do not try again (and wait on apt) for a day. */
const RETRY_AFTER_MS = 24 * 3600 * 1000;
const MAX_SEED_BYTES = 400_000;

export function seedCacheDir(): string {
  return path.join(process.env.RST2_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'rst2'), 'fuzz-seeds');
}

const repoSeedDir = path.join(projectRoot, 'bench', 'fuzz-seeds');

function run(cmd: string, args: string[], cwd: string): boolean {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return r.status === 0;
}

/** Every .txt (or .txt.gz) below `root`, copied flat into `out` under a name made from its path. */
function collect(root: string, out: string, keep: (rel: string) => boolean): number {
  let n = 0;
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.txt(\.gz)?$/.test(entry.name)) {
        const rel = path.relative(root, full);
        if (!keep(rel)) continue;
        const data = entry.name.endsWith('.gz') ? zlib.gunzipSync(fs.readFileSync(full)) : fs.readFileSync(full);
        if (data.length > MAX_SEED_BYTES) continue;
        fs.writeFileSync(path.join(out, rel.replace(/\.gz$/, '').replace(/[\\/]/g, '__')), data);
        n++;
      }
    }
  };
  if (fs.existsSync(root)) walk(root);
  return n;
}

function fromSourcePackage(tmp: string, out: string): number {
  if (!run('apt-get', ['source', '--download-only', 'python-docutils'], tmp)) return 0;
  const tarball = fs.readdirSync(tmp).find((f) => /\.orig\.tar\.(xz|gz|bz2)$/.test(f));
  if (!tarball) return 0;
  const src = path.join(tmp, 'src');
  fs.mkdirSync(src);
  if (!run('tar', ['-xf', tarball, '-C', src, '--wildcards', '*/test/functional/input/*', '*/docs/*'], tmp)) return 0;
  return collect(src, out, () => true);
}

function fromInstalledDocs(out: string): number {
  return collect('/usr/share/doc/docutils-doc', out, () => true);
}

function fromDownloadedDocs(tmp: string, out: string): number {
  if (!run('apt-get', ['download', 'docutils-doc'], tmp)) return 0;
  const deb = fs.readdirSync(tmp).find((f) => f.startsWith('docutils-doc_') && f.endsWith('.deb'));
  if (!deb || !run('dpkg-deb', ['-x', deb, 'x'], tmp)) return 0;
  return collect(path.join(tmp, 'x/usr/share/doc/docutils-doc'), out, () => true);
}

/**
 * Fills the seed cache if it is empty; returns what it holds (or why not).
 * Never throws: without cached seeds the fuzzer uses the repository's.
 */
export function ensureSeedCache(say: (line: string) => void = () => {}): Manifest | undefined {
  const dir = seedCacheDir();
  const manifestFile = path.join(dir, 'manifest.json');
  const failedFile = path.join(dir, 'failed.json');
  if (fs.existsSync(manifestFile)) return JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  if (fs.existsSync(failedFile) && Date.now() - fs.statSync(failedFile).mtimeMs < RETRY_AFTER_MS) return undefined;
  fs.mkdirSync(dir, { recursive: true });
  const attempts: Array<[string, (tmp: string, out: string) => number]> = [
    ['docutils source package (apt-get source)', fromSourcePackage],
    ['docutils-doc, installed', (_tmp, out) => fromInstalledDocs(out)],
    ['docutils-doc (apt-get download)', fromDownloadedDocs],
  ];
  for (const [source, attempt] of attempts) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-seeds-'));
    const out = fs.mkdtempSync(path.join(dir, '.partial-'));
    try {
      say(`[fuzz] seeds: trying ${source}`);
      const files = attempt(tmp, out);
      if (files > 0) {
        for (const f of fs.readdirSync(out)) fs.renameSync(path.join(out, f), path.join(dir, f));
        const manifest: Manifest = { source, files, made: new Date().toISOString() };
        fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
        say(`[fuzz] seeds: ${files} documents from ${source} cached in ${dir}`);
        return manifest;
      }
    } catch (err) {
      say(`[fuzz] seeds: ${source} failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
      fs.rmSync(out, { recursive: true, force: true });
    }
  }
  fs.writeFileSync(failedFile, JSON.stringify({ at: new Date().toISOString() }));
  say(`[fuzz] seeds: no docutils documents could be fetched; using the repository's seeds only`);
  return undefined;
}

function readDir(dir: string, ext: RegExp): Seed[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => ext.test(f))
    .sort()
    .map((f) => ({ name: f, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** The seeds, in a stable order (so a PRNG seed reproduces a run): cached docutils documents, then ours. */
export function loadSeeds(say?: (line: string) => void): { seeds: Seed[]; source: string } {
  const manifest = ensureSeedCache(say);
  const cached = manifest ? readDir(seedCacheDir(), /\.txt$/) : [];
  const ours = readDir(repoSeedDir, /\.rst$/);
  return { seeds: [...cached, ...ours], source: manifest ? `${manifest.files} from ${manifest.source} + ${ours.length} of ours` : `${ours.length} of ours (fallback)` };
}
