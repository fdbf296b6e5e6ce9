/**
 * Debian packages that the conformance tests and the benchmarks compare us
 * with: native docutils, its oracles (restructuredtext-lint,
 * readme_renderer) and the documents of the real-document corpus. Each is
 * downloaded through our own apt lists (scripts/apt-private) into the cache
 * folder and unpacked there, so nothing of the machine's Python, docutils
 * or /usr/share/doc is read, and nothing is installed: the clean room has
 * none of it, and a test that read the host would pass there on nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { paths, projectRoot } from '../../src/paths.js';

export function cacheRoot(): string {
  return process.env['RST2_CACHE_DIR']?.trim() || path.join(os.homedir(), '.cache', 'rst2');
}

const aptPrivate = path.join(projectRoot, 'scripts', 'apt-private');

/** What the Python bundle was built from (wasm/python/manifest.json). */
export interface BundleManifest {
  key: string;
  suites: string[];
  packages: Array<{ name: string; version: string; suite: string }>;
}

export function bundleManifest(): BundleManifest {
  return JSON.parse(fs.readFileSync(path.join(path.dirname(paths.pythonBundle), 'manifest.json'), 'utf8')) as BundleManifest;
}

/** The Debian version the bundle runs of one of its packages (python3-docutils, ...). */
export function bundleVersion(name: string): string {
  const found = bundleManifest().packages.find((p) => p.name === name);
  if (!found) throw new Error(`the Python bundle's manifest names no ${name}`);
  return found.version;
}

/**
 * Downloads `specs` (apt names, `name` or `name=version`) from `suites` and
 * unpacks each into its own folder; returns name -> folder. Kept in the
 * cache under a key of what was asked, so later runs download nothing. A
 * half-made folder (no `ready` mark) is made again.
 */
export function unpackedPackages(suites: readonly string[], specs: readonly string[]): Map<string, string> {
  const key = crypto.createHash('sha256').update(JSON.stringify([suites, specs])).digest('hex').slice(0, 16);
  const dir = path.join(cacheRoot(), 'debian', key);
  const names = specs.map((s) => s.split('=')[0]!);
  const result = new Map(names.map((name) => [name, path.join(dir, name)]));
  if (fs.existsSync(path.join(dir, 'ready'))) return result;
  fs.rmSync(dir, { recursive: true, force: true });
  const debs = path.join(dir, 'debs');
  fs.mkdirSync(debs, { recursive: true });
  const r = spawnSync(aptPrivate, ['--suites', suites.join(','), 'apt-get', 'download', ...specs], { cwd: debs, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`downloading ${specs.join(' ')} from ${suites.join(',')} failed:\n${(r.stderr || r.stdout).slice(-2000)}`);
  const files = fs.readdirSync(debs);
  for (const name of names) {
    // apt-get download names files NAME_VERSION_ARCH.deb.
    const deb = files.find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download ${name} left no ${name}_*.deb in ${debs}`);
    execFileSync('dpkg', ['-x', path.join(debs, deb), path.join(dir, name)]);
  }
  fs.rmSync(debs, { recursive: true, force: true });
  fs.writeFileSync(path.join(dir, 'ready'), `${specs.join('\n')}\n`);
  return result;
}

/** A reStructuredText document of the real-document corpus or of docutils' own documentation. */
export interface CorpusDocument {
  package: string;
  kind: 'description' | 'readme' | 'changelog' | 'docutils-doc';
  name: string;
  text: string;
}

interface CorpusList {
  suite: string;
  packages: Record<string, number>;
}

export const corpusListFile = path.join(projectRoot, 'test', 'corpus', 'debian-documents.json');

export function corpusList(): CorpusList {
  return JSON.parse(fs.readFileSync(corpusListFile, 'utf8')) as CorpusList;
}

/**
 * The real-document corpus: the reStructuredText documents the packages of
 * test/corpus/debian-documents.json carry (test/oracles/corpus.py says what
 * counts). The packages are unpacked one at a time and dropped once read
 * (about 230 MB unpacked, 900 KB of documents); the documents are kept in
 * the cache.
 */
export function corpusDocuments(): CorpusDocument[] {
  const list = corpusList();
  const names = Object.keys(list.packages);
  const key = crypto.createHash('sha256').update(JSON.stringify([list.suite, names, fs.readFileSync(path.join(projectRoot, 'test', 'oracles', 'corpus.py'))])).digest('hex').slice(0, 16);
  const file = path.join(cacheRoot(), 'corpus', `debian-${key}.json`);
  if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, 'utf8')) as { documents: CorpusDocument[] }).documents;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-corpus-'));
  try {
    const debs = path.join(work, 'debs');
    fs.mkdirSync(debs);
    const r = spawnSync(aptPrivate, ['--suites', list.suite, 'apt-get', 'download', ...names], { cwd: debs, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`downloading the corpus (${corpusListFile}) failed:\n${(r.stderr || r.stdout).slice(-2000)}`);
    const documents: CorpusDocument[] = [];
    for (const name of names) {
      const deb = fs.readdirSync(debs).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
      if (!deb) throw new Error(`apt-get download ${name} left no ${name}_*.deb`);
      const root = path.join(work, 'x');
      execFileSync('dpkg', ['-x', path.join(debs, deb), root]);
      const out = execFileSync('/usr/bin/python3', [path.join(projectRoot, 'test', 'oracles', 'corpus.py'), `${name}=${root}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
      documents.push(...(JSON.parse(out) as { documents: CorpusDocument[] }).documents);
      fs.rmSync(root, { recursive: true, force: true });
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.part`, JSON.stringify({ documents }));
    fs.renameSync(`${file}.part`, file);
    return documents;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * docutils' own documentation in the version the bundle runs (docutils-doc
 * of the same Debian revision as its python3-docutils): every .txt file
 * under /usr/share/doc/docutils-doc, all reStructuredText.
 */
export function docutilsDocuments(): CorpusDocument[] {
  const version = bundleVersion('python3-docutils');
  const dir = unpackedPackages(bundleManifest().suites, [`docutils-doc=${version}`]).get('docutils-doc')!;
  const base = path.join(dir, 'usr', 'share', 'doc', 'docutils-doc');
  const documents: CorpusDocument[] = [];
  for (const entry of fs.readdirSync(base, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(txt|rst)(\.gz)?$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = file.endsWith('.gz') ? execFileSync('gzip', ['-dc', file], { encoding: 'utf8' }) : fs.readFileSync(file, 'utf8');
    documents.push({ package: 'docutils-doc', kind: 'docutils-doc', name: path.relative(base, file), text });
  }
  return documents.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A sitecustomize in `dir`/boot: Debian's docutils reads its writers' data
 * from /usr/share/docutils (its _datadir patch); there it reads it from the
 * same path under `dir`. `what` says in the file what `dir` holds.
 */
export function writeDatadirRedirect(dir: string, what: string): void {
  fs.mkdirSync(path.join(dir, 'boot'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'boot', 'sitecustomize.py'),
    [
      `# rst2: Debian's docutils reads its writers' data from /usr/share/docutils; here from ${what}.`,
      'import docutils',
      `_root = ${JSON.stringify(dir)}`,
      '_orig = docutils._datadir',
      'docutils._datadir = lambda path, *args: _root + _orig(path, *args)',
      '',
    ].join('\n'),
  );
}

/**
 * The environment for Debian's CPython (/usr/bin/python3) to run the
 * docutils and Pygments of the Python bundle (wasm/python/bundle.tar), so
 * that native baselines and oracles run the versions the workers run. The
 * bundle is unpacked once per bundle key in the cache; a sitecustomize
 * points Debian's docutils._datadir (/usr/share/docutils) at the unpacked
 * copy. `extraPath` goes after the bundle on PYTHONPATH.
 */
export function nativeBundleEnv(extraPath: string[] = []): NodeJS.ProcessEnv {
  const dir = path.join(cacheRoot(), 'native-bundle', bundleManifest().key);
  if (!fs.existsSync(path.join(dir, 'ready'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xf', paths.pythonBundle, '-C', dir]);
    writeDatadirRedirect(dir, 'the unpacked bundle');
    fs.writeFileSync(path.join(dir, 'ready'), '');
  }
  const lib = fs.readdirSync(path.join(dir, 'lib')).find((d) => d.startsWith('python3'));
  if (!lib) throw new Error(`${paths.pythonBundle} holds no lib/python3.N`);
  // PYTHONNOUSERSITE and no inherited PYTHONPATH: only what we name is imported besides the standard library.
  return { ...process.env, PYTHONNOUSERSITE: '1', PYTHONPATH: [path.join(dir, 'boot'), path.join(dir, 'lib', lib, 'site-packages'), ...extraPath].join(':') };
}
