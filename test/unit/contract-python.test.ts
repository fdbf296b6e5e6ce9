/**
 * The worker contract on Python's side, in the unit tier: python/tests/
 * test_contract.py run inside Pyodide (some 5 s; the rest of python/tests is
 * test/python.test.ts). It boots one interpreter in this process, no worker
 * pool and no server, so that `npm run test:unit` fails when Python's real
 * replies, the options it reads or the lists it keeps leave the contract,
 * as contract.test.ts does for TypeScript's side. Each of its checks is
 * shown failing on a broken copy there.
 */
import { expect } from 'chai';

import { runPythonTests } from '../support/python-tests.js';

describe('the worker contract, Python side (python/tests/test_contract.py in Pyodide)', function () {
  this.timeout(120_000);

  it('holds for what Python really replies, reads and keeps', async () => {
    const { run, failures, errors, output } = await runPythonTests('test_contract.py');
    expect(run, output).to.be.at.least(10);
    expect(failures + errors, output).to.equal(0);
  });
});
