/**
 * A project as `rst2 check` and the language server read it, without an
 * engine (src/project/): which config governs a file, what its overrides
 * make of a file's settings, how rule choices stack, the globs' folder
 * rule, what git ignores under nested .gitignore files, and the walk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { ServiceError } from '../../src/errors.js';
import { globTest } from '../../src/project/globs.js';
import { GitIgnore } from '../../src/project/gitignore.js';
import { stackRules } from '../../src/project/rule-layers.js';
import { ProjectSettings, settingsFor } from '../../src/project/settings.js';
import { findSphinxConf } from '../../src/project/sphinx-conf.js';
import { findFiles } from '../../src/project/walk.js';
import { RULES } from '../../src/rules.js';

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-project-unit-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('project: configuration, overrides, rules, globs, .gitignore, the walk', function () {
  const roots: string[] = [];
  const make = (files: Record<string, string>): string => {
    const root = tree(files);
    roots.push(root);
    return root;
  };

  after(function () {
    for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  });

  it('finds the closest config upward, .rst2.toml before rst2.toml before pyproject.toml, and a pyproject.toml without [tool.rst2] is none', function () {
    const root = make({
      'pyproject.toml': '[tool.rst2]\ndialect = "sphinx"\n',
      'a/pyproject.toml': '[tool.black]\nline-length = 100\n',
      'a/x.rst': '',
      'b/rst2.toml': 'dialect = "pypi"\n',
      'b/.rst2.toml': 'dialect = "docutils"\n',
      'b/pyproject.toml': '[tool.rst2]\ndialect = "sphinx"\n',
      'b/c/y.rst': '',
    });
    expect(settingsFor(path.join(root, 'a/x.rst')).config?.file).to.equal(path.join(root, 'pyproject.toml'));
    expect(settingsFor(path.join(root, 'a/x.rst')).dialect).to.equal('sphinx');
    expect(settingsFor(path.join(root, 'b/c/y.rst')).config?.file).to.equal(path.join(root, 'b/.rst2.toml'));
    expect(settingsFor(path.join(root, 'b/c/y.rst')).dialect).to.equal('docutils');
    expect(settingsFor(path.join(root, 'b/c/y.rst'), { configFile: path.join(root, 'b/rst2.toml') }).dialect).to.equal('pypi');
    expect(settingsFor(path.join(root, 'b/c/y.rst'), { isolated: true }).config).to.equal(undefined);
  });

  it('applies every matching override in order: a later dialect wins, names add up, rule choices stack', function () {
    const root = make({
      'rst2.toml': [
        'select = ["title"]',
        'roles = ["gh"]',
        '[[overrides]]',
        'paths = ["docs"]',
        'dialect = "sphinx"',
        'roles = ["issue"]',
        'extend-select = ["unknown-role"]',
        '[[overrides]]',
        'paths = ["docs/api/**/*.rst"]',
        'dialect = "pypi"',
        'ignore = ["title-underline-too-short"]',
        '',
      ].join('\n'),
    });
    const settings = new ProjectSettings();
    const top = settings.settingsFor(path.join(root, 'README.rst'));
    expect(top.dialect).to.equal(undefined);
    expect(top.names.roles).to.deep.equal(['gh']);
    const api = settings.settingsFor(path.join(root, 'docs/api/deep/x.rst'));
    expect(api.dialect).to.equal('pypi');
    expect(api.names.roles).to.deep.equal(['gh', 'issue']);
    const rules = stackRules(api.ruleLayers)!;
    expect(rules).to.include('unknown-role').and.include('title-overline-too-short').and.not.include('title-underline-too-short').and.not.include('unknown-directive');
    // The command line is one more layer: --select replaces, --ignore trims.
    expect(stackRules([...api.ruleLayers, { select: ['unknown-directive'] }])).to.deep.equal(['unknown-directive']);
    expect(stackRules([])).to.deep.equal(RULES.filter((r) => r.default).map((r) => r.code));
    expect(stackRules([{ ignore: ['ALL'] }])).to.deep.equal([]);
    expect(stackRules([{ extendSelect: ['title'] }])).to.deep.equal(RULES.filter((r) => r.default).map((r) => r.code));
  });

  it('names the file, the key and what was expected for a mistake', function () {
    const root = make({ 'rst2.toml': '[[overrides]]\npaths = ["x"]\nexclude = ["y"]\n' });
    let error: unknown;
    try {
      settingsFor(path.join(root, 'x.rst'));
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(ServiceError);
    const e = error as ServiceError;
    expect(e.code).to.equal('config_invalid');
    expect(e.details).to.deep.include({ key: 'overrides[1].exclude' });
    expect(e.message).to.include('rst2.toml: overrides[1].exclude: exclude applies to the whole configuration');
  });

  it('matches globs relative to the config, a folder glob matching everything in it', function () {
    const test = globTest(['docs/legacy', 'build/', '**/CHANGES.rst', '*.txt', './top.rst']);
    for (const yes of ['docs/legacy', 'docs/legacy/a/b.rst', 'build/x.rst', 'CHANGES.rst', 'a/b/CHANGES.rst', 'notes.txt', 'top.rst']) expect(test(yes), yes).to.equal(true);
    for (const no of ['docs/legacy2/a.rst', 'docs/x.rst', 'sub/notes.txt', 'sub/top.rst', '../docs/legacy/a.rst']) expect(test(no), no).to.equal(false);
    expect(globTest([])('x')).to.equal(false);
  });

  it('ignores what git ignores: the deepest .gitignore that speaks decides, and info/exclude counts', function () {
    const root = make({
      '.git/info/exclude': 'local.rst\n',
      '.gitignore': '*.tmp.rst\nbuild/\n',
      'docs/.gitignore': '!keep.tmp.rst\n',
      'docs/keep.tmp.rst': '',
      'docs/other.tmp.rst': '',
      'local.rst': '',
    });
    const git = new GitIgnore(path.join(root, 'docs'));
    expect(git.ignores(path.join(root, 'docs/other.tmp.rst'), false)).to.equal(true);
    expect(git.ignores(path.join(root, 'docs/keep.tmp.rst'), false)).to.equal(false);
    expect(git.ignores(path.join(root, 'docs/build'), true)).to.equal(true);
    expect(git.ignores(path.join(root, 'docs/build'), false)).to.equal(false);
    expect(new GitIgnore(root).ignores(path.join(root, 'local.rst'), false)).to.equal(true);
  });

  it('walks folders as configured and sorts what it finds; a named file is always taken', function () {
    const root = make({
      'rst2.toml': 'extensions = [".rst", "rest"]\nexclude = ["old"]\ninclude = ["docs", "README.rst", "old"]\n',
      'README.rst': '',
      'NOTES.rst': '',
      'docs/b.rest': '',
      'docs/a.rst': '',
      'docs/c.md': '',
      'docs/_build/x.rst': '',
      'docs/.cache/x.rst': '',
      'old/x.rst': '',
      'node_modules/m/x.rst': '',
    });
    fs.symlinkSync(path.join(root, 'docs'), path.join(root, 'docs-link'));
    fs.symlinkSync(path.join(root, 'README.rst'), path.join(root, 'docs/readme-link.rst'));
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const found = findFiles(['.', 'old/x.rst', './README.rst'], new ProjectSettings()).map((f) => f.shown);
      expect(found).to.deep.equal(['README.rst', 'docs/a.rst', 'docs/b.rest', 'docs/readme-link.rst', 'old/x.rst']);
      expect(() => findFiles(['absent'], new ProjectSettings())).to.throw('cannot read absent: no such file or folder');
    } finally {
      process.chdir(cwd);
    }
  });

  it('skips, with a warning, a link that loops on itself found while walking, and checks the rest', function () {
    const root = make({ 'docs/a.rst': '' });
    fs.symlinkSync('loop.rst', path.join(root, 'docs/loop.rst'));
    const warnings: string[] = [];
    const found = findFiles([path.join(root, 'docs')], new ProjectSettings({ isolated: true }), (m) => warnings.push(m)).map((f) => path.basename(f.shown));
    expect(found).to.deep.equal(['a.rst']);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/cannot read .*loop\.rst: .*ELOOP.*\(skipped\)/);
  });

  it("finds a file's conf.py in its folder or above, no higher than the ceiling", function () {
    const root = make({ 'docs/conf.py': '', 'docs/a/b/x.rst': '', 'conf.py': '' });
    expect(findSphinxConf(path.join(root, 'docs/a/b'), root)).to.equal(path.join(root, 'docs/conf.py'));
    expect(findSphinxConf(path.join(root, 'docs/a/b'), path.join(root, 'docs/a'))).to.equal(undefined);
    expect(findSphinxConf(root, root)).to.equal(path.join(root, 'conf.py'));
  });
});
