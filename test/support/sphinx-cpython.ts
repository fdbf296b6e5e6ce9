/**
 * CPython's documentation sources and Sphinx's standard role and directive
 * names, both from Debian packages that test/corpus/sphinx-cpython.json
 * names, downloaded into the cache (test/support/debian.ts), for
 * test/sphinx-cpython.test.ts and bench/dialects.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import { loadPyodide } from 'pyodide';

import { copyTree, unpackTar } from '../../src/engines/python/boot.js';
import { paths, projectRoot } from '../../src/paths.js';
import { unpackedPackages } from './debian.js';

interface Corpus {
  sources: { suite: string; package: string; dir: string; pages: number };
  sphinx: { suite: string; packages: string[] };
}

export const CORPUS = JSON.parse(fs.readFileSync(path.join(projectRoot, 'test', 'corpus', 'sphinx-cpython.json'), 'utf8')) as Corpus;

/** `name (version)` of an unpacked package, from the first line of its Debian changelog. */
function packageVersion(name: string, root: string): string {
  const file = path.join(root, 'usr', 'share', 'doc', name, 'changelog.Debian.gz');
  const first = fs.existsSync(file) ? zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n', 1)[0]! : '';
  return `${name} ${/\(([^)]+)\)/.exec(first)?.[1] ?? '(version unknown)'}`;
}

export interface CpythonPages {
  /** The _sources folder: each page is a .rst.txt file under it. */
  dir: string;
  files: string[];
  /** The package and its version, "python3.13-doc 3.13.5-2+deb13u5". */
  from: string;
}

/** CPython's reST sources (CORPUS.sources), downloaded into the cache the first time. */
export function cpythonPages(): CpythonPages {
  const { suite, package: name, dir } = CORPUS.sources;
  const root = unpackedPackages([suite], [name]).get(name)!;
  const sources = path.join(root, dir);
  if (!fs.existsSync(sources)) throw new Error(`${suite}'s ${name} has no ${dir}`);
  const files = fs
    .readdirSync(sources, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.rst.txt'))
    .sort()
    .map((f) => path.join(sources, f));
  return { dir: sources, files, from: packageVersion(name, root) };
}

/** Sphinx and its dependencies (CORPUS.sphinx), each unpacked into a folder of the cache the first time: name -> folder. */
export function sphinxPackages(): Map<string, string> {
  const { suite, packages } = CORPUS.sphinx;
  return unpackedPackages([suite], packages);
}

export interface StandardNames {
  /** sphinx.__version__ */
  version: string;
  /** docutils.__version__ under that Sphinx: the bundle's. */
  docutils: string;
  roles: string[];
  directives: string[];
}

/**
 * The names a real Sphinx registers: test/oracles/sphinx_names.py, run with
 * Debian's Sphinx (CORPUS.sphinx) on the bundle's docutils, Pygments and
 * roman-numerals. It runs in Pyodide, the workers' CPython (3.14), since
 * sid's Sphinx 9 needs Python 3.13 or later (Requires-Python; its modules
 * use 3.12's `type` statements, a syntax error on bookworm's python3,
 * 3.11). The packages' files are copied into Pyodide's in-memory filesystem
 * where Debian installs them, which Debian's Sphinx relies on (its
 * sphinx.package_dir is /usr/share/sphinx, sphinx-common's themes): nothing
 * of the machine is seen.
 */
export async function sphinxStandardNames(): Promise<StandardNames> {
  const unpacked = sphinxPackages();
  let output = '';
  const py = await loadPyodide({ stdout: (s) => (output += `${s}\n`), stderr: (s) => (output += `${s}\n`) });
  unpackTar(py, fs.readFileSync(paths.pythonBundle));
  for (const root of unpacked.values()) {
    for (const dir of ['lib', 'share']) {
      const from = path.join(root, 'usr', dir);
      if (!fs.existsSync(from)) continue;
      for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
        // Not the packages' documentation.
        if (entry.isDirectory() && !['doc', 'man', 'lintian'].includes(entry.name)) copyTree(py, path.join(from, entry.name), `/usr/${dir}/${entry.name}`, ['__pycache__']);
      }
    }
  }
  py.FS.mkdirTree('/oracle');
  py.FS.writeFile('/oracle/sphinx_names.py', new Uint8Array(fs.readFileSync(path.join(projectRoot, 'test', 'oracles', 'sphinx_names.py'))));
  try {
    const json = py.runPython(`
import json, sys
# Debian's dist-packages after the bundle's site-packages: its docutils,
# Pygments and roman-numerals are the ones imported.
sys.path += ["/usr/lib/python3/dist-packages", "/oracle"]
import docutils, sphinx, sphinx_names
assert docutils.__file__.startswith("/lib/python3."), docutils.__file__  # the bundle's
assert sphinx.__file__.startswith("/usr/lib/python3/dist-packages/"), sphinx.__file__
json.dumps(dict(sphinx_names.sphinx_names(), docutils=docutils.__version__))
`) as string;
    return JSON.parse(json) as StandardNames;
  } catch (err) {
    throw new Error(`Sphinx in Pyodide failed: ${(err as Error).message}\n${output}`);
  }
}
