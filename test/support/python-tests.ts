/**
 * Runs unittest files of python/tests inside Pyodide, with the bundle the
 * workers use and every file where a worker has it (boot.ts's layOutFiles,
 * at the worker contract's paths), so the Python is tested where it runs.
 */
import path from 'node:path';

import { loadPyodide } from 'pyodide';

import { copyTree, layOutFiles } from '../../src/engines/python/boot.js';
import { PYODIDE_PATHS } from '../../src/engines/python/contract.js';
import { paths } from '../../src/paths.js';

export interface PythonTestRun {
  run: number;
  failures: number;
  errors: number;
  /** unittest's report, to show when something failed. */
  output: string;
}

/** `pattern`: unittest's discovery pattern, e.g. `test_contract.py` for one file. */
export async function runPythonTests(pattern = 'test*.py'): Promise<PythonTestRun> {
  let output = '';
  const py = await loadPyodide({ stdout: (s) => (output += `${s}\n`), stderr: (s) => (output += `${s}\n`), env: { HOME: '/home/pyodide' } });
  layOutFiles(py, { bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles });
  // The workers go without the tests.
  const root = PYODIDE_PATHS.python;
  copyTree(py, path.join(paths.pythonSources, 'tests'), `${root}/tests`, ['__pycache__']);
  const summary = py.runPython(`
import sys, unittest, json
sys.path.insert(0, '${root}')
suite = unittest.defaultTestLoader.discover('${root}/tests', pattern=${JSON.stringify(pattern)}, top_level_dir='${root}')
result = unittest.TextTestRunner(stream=sys.stderr, verbosity=1).run(suite)
json.dumps({"run": result.testsRun, "failures": len(result.failures), "errors": len(result.errors)})
`) as string;
  return { ...(JSON.parse(summary) as Omit<PythonTestRun, 'output'>), output };
}
