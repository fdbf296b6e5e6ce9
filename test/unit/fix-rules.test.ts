/**
 * The manual's fixes page (docs/fixes.rst) and the rules in
 * python/rst2/fixes/ name the same rules: a rule without its section, or a
 * section whose rule is gone, fails here.
 */
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { projectRoot } from '../../src/paths.js';

const FIXES = path.join(projectRoot, 'python', 'rst2', 'fixes');

function ruleCodes(): string[] {
  return fs
    .readdirSync(FIXES)
    .filter((f) => f.endsWith('.py'))
    .flatMap((f) => [...fs.readFileSync(path.join(FIXES, f), 'utf8').matchAll(/^ {4}code = "([a-z-]+)"$/gm)].map((m) => m[1]!));
}

function documentedCodes(): string[] {
  const page = fs.readFileSync(path.join(projectRoot, 'docs', 'fixes.rst'), 'utf8');
  const rules = page.slice(page.indexOf('\nThe rules\n'));
  return [...rules.matchAll(/^([a-z][a-z-]+)\n-+\n/gm)].map((m) => m[1]!);
}

describe('the fix rules and the manual', () => {
  it('every rule has its section in docs/fixes.rst, and every section its rule', () => {
    const codes = ruleCodes();
    expect(codes.length).to.be.greaterThan(9);
    expect(new Set(codes).size, 'rule codes are unique').to.equal(codes.length);
    expect([...documentedCodes()].sort()).to.deep.equal([...codes].sort());
  });
});
