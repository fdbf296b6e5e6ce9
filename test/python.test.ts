/**
 * Runs python/tests (plain unittest) inside Pyodide with the same bundle the
 * workers use, so the Python is tested where it really runs.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

import { loadPyodide } from 'pyodide';

import { copyTree, unpackTar } from '../src/engines/python/boot.js';
import { paths } from '../src/paths.js';

describe('python/ tests inside Pyodide', () => {
  it('all pass', async () => {
    let output = '';
    const py = await loadPyodide({ stdout: (s) => (output += `${s}\n`), stderr: (s) => (output += `${s}\n`), env: { RST2_STYLES_DIR: '/rst2/styles', RST2_SCRIPTS_TABLE: '/rst2/tex/scripts.json', HOME: '/home/pyodide' } });
    unpackTar(py, fs.readFileSync(paths.pythonBundle));
    copyTree(py, paths.pythonSources, '/rst2/python', ['__pycache__']);
    copyTree(py, paths.styles, '/rst2/styles');
    // What the fonts of the TeX build cover (python/tests/test_scripts.py).
    const table = path.join(paths.texDir, 'scripts.json');
    if (fs.existsSync(table)) {
      py.FS.mkdirTree('/rst2/tex');
      py.FS.writeFile('/rst2/tex/scripts.json', new Uint8Array(fs.readFileSync(table)));
    }
    const summary = py.runPython(`
import sys, unittest, json
sys.path.insert(0, '/rst2/python')
suite = unittest.defaultTestLoader.discover('/rst2/python/tests', top_level_dir='/rst2/python')
result = unittest.TextTestRunner(stream=sys.stderr, verbosity=1).run(suite)
json.dumps({"run": result.testsRun, "failures": len(result.failures), "errors": len(result.errors)})
`) as string;
    const counts = JSON.parse(summary) as { run: number; failures: number; errors: number };
    expect(counts.run, output).to.be.at.least(15);
    expect(counts.failures + counts.errors, output).to.equal(0);
  });
});
