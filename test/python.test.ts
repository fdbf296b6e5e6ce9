/**
 * Runs python/tests (plain unittest) inside Pyodide with the same bundle the
 * workers use, so the Python is tested where it really runs.
 */
import { expect } from 'chai';

import { runPythonTests } from './support/python-tests.js';

describe('python/ tests inside Pyodide', () => {
  it('all pass', async () => {
    const { run, failures, errors, output } = await runPythonTests();
    expect(run, output).to.be.at.least(15);
    expect(failures + errors, output).to.equal(0);
  });
});
