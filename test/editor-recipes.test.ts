/**
 * The editor recipes of docs/lsp.rst, run in the editors Debian 12 ships,
 * headless, against the built `rst2 lsp`: the "Neovim 0.7 to 0.10" recipe
 * in Neovim 0.7.2 (package neovim), and the Emacs recipe in Emacs 28.2 with
 * eglot 1.9 (emacs-nox, elpa-eglot). scripts/setup-editors.mjs installs them
 * during `npm install`; a missing one fails its test, naming the package
 * (RST2_SKIP_EDITORS=1 skips them instead).
 *
 * Each recipe is read from the page (the code block with its `:name:`), so
 * what is tested is what a reader copies. The editor opens a document with
 * a problem that has a safe fix (an emphasis start-string without end) and
 * a Sphinx role (no problem in the `sphinx` dialect the recipe's settings
 * name, an unknown role without them), waits for the diagnostic, runs the
 * recipe's fix-all command, saves, and waits for the diagnostics to clear.
 * `rst2` is a shim on PATH that runs dist/src/cli.js with this Node. Every
 * wait is the editor's own wait for an event (vim.wait, Emacs'
 * accept-process-output), never a sleep; the editor writes what it saw to a
 * file, read here.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { paths, projectRoot } from '../src/paths.js';

const PAGE = path.join(paths.docs, 'lsp.rst');
const CLI = path.join(projectRoot, 'dist', 'src', 'cli.js');
/** What the editor waits, in seconds, for each event (the server's worker starts in about a second, longer on a loaded machine). */
const WAIT_S = 40;
/** The editor is killed if it is still running after this. */
const EDITOR_LIMIT_MS = 100_000;

/** Line 4: a Sphinx role, and an emphasis star without end (a safe fix: escape it). */
const DOC = ['Title', '=====', '', 'See :ref:`intro` and *oops.', ''].join('\n');
const FIXED = DOC.replace('*oops', '\\*oops');
const PROBLEM = 'Inline emphasis start-string without end-string.';
const RULE = 'inline-start-without-end';

/** The content of the code block named `name` (`:name:` option) on docs/lsp.rst, dedented. */
function recipe(name: string): string {
  const lines = fs.readFileSync(PAGE, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)\.\. code(?:-block)?::/.exec(lines[i]!);
    if (!m) continue;
    const indent = m[1]!.length;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() !== '' && line.length - line.trimStart().length <= indent) break;
      body.push(line);
    }
    const options: string[] = [];
    while (body.length > 0 && /^\s*:[\w-]+:/.test(body[0]!)) options.push(body.shift()!.trim());
    if (!options.includes(`:name: ${name}`)) continue;
    while (body.length > 0 && body[0]!.trim() === '') body.shift();
    while (body.length > 0 && body[body.length - 1]!.trim() === '') body.pop();
    const depth = Math.min(...body.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
    return `${body.map((l) => l.slice(depth)).join('\n')}\n`;
  }
  throw new Error(`docs/lsp.rst has no code block with :name: ${name}`);
}

/** The first line of `command --version`; throws naming the Debian package when the editor is missing. */
function editorVersion(command: string, packages: string): string {
  const run = spawnSync(command, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (run.error || run.status !== 0) {
    throw new Error(
      `${command} is not installed (${run.error?.message ?? `exit ${run.status}`}): the editor recipe tests need Debian's ${packages}, ` +
        `which npm install installs (scripts/setup-editors.mjs; as root: apt-get install --no-install-recommends ${packages}). ` +
        'RST2_SKIP_EDITORS=1 skips these tests.',
    );
  }
  return run.stdout.split('\n')[0]!.trim();
}

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** Runs an editor to its end (killed after EDITOR_LIMIT_MS), with its standard output and error together. */
function runEditor(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (output += b.toString('utf8')));
    const limit = setTimeout(() => child.kill('SIGKILL'), EDITOR_LIMIT_MS);
    child.on('error', (err) => {
      clearTimeout(limit);
      reject(err);
    });
    child.on('close', (status, signal) => {
      clearTimeout(limit);
      resolve({ status, signal, output });
    });
  });
}

/** A folder for one editor run: the document, a `rst2` shim on PATH that records each server's pid, a home of its own. */
class Workspace {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-editor-'));
  readonly bin = path.join(this.dir, 'bin');
  readonly home = path.join(this.dir, 'home');
  readonly project = path.join(this.dir, 'project');
  readonly doc = path.join(this.project, 'doc.rst');
  readonly result = path.join(this.dir, 'result.json');
  private readonly pids = path.join(this.dir, 'server-pids');

  constructor() {
    for (const dir of [this.bin, this.home, this.project]) fs.mkdirSync(dir);
    const shim = path.join(this.bin, 'rst2');
    fs.writeFileSync(shim, `#!/bin/sh\necho $$ >> ${JSON.stringify(this.pids)}\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`, { mode: 0o755 });
    fs.writeFileSync(this.doc, DOC);
    // The project's configuration, empty: the server looks no further up (/tmp) for one.
    fs.writeFileSync(path.join(this.project, 'rst2.toml'), '');
  }

  env(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    return { ...process.env, PATH: `${this.bin}${path.delimiter}${process.env['PATH'] ?? ''}`, HOME: this.home, ...extra };
  }

  /** What the editor wrote to the result file (with its output when it wrote none). */
  read<T>(run: Run): T {
    if (!fs.existsSync(this.result)) {
      throw new Error(`the editor wrote no result (exit ${run.status ?? run.signal}):\n${run.output.slice(-3000)}`);
    }
    return JSON.parse(fs.readFileSync(this.result, 'utf8')) as T;
  }

  /** How many servers the editor started through the shim. */
  servers(): number {
    return fs.existsSync(this.pids) ? fs.readFileSync(this.pids, 'utf8').trim().split('\n').filter(Boolean).length : 0;
  }

  /** Ends any server the editor left running (it started them through our shim), then removes the folder. */
  remove(): void {
    if (fs.existsSync(this.pids)) {
      for (const pid of fs.readFileSync(this.pids, 'utf8').trim().split('\n').filter(Boolean).map(Number)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone, as it should be.
        }
      }
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

const skip = process.env['RST2_SKIP_EDITORS'] === '1';

(skip ? describe.skip : describe)('docs/lsp.rst: the editor recipes, run headless in the editors Debian 12 ships', function () {
  this.timeout(EDITOR_LIMIT_MS + 20_000);

  describe('Neovim (neovim: 0.7.2), the "Neovim 0.7 to 0.10" recipe', () => {
    // Neovim's own wait: true when the condition held, false at the timeout.
    const driver = `
local out = {}
local function items()
  return vim.tbl_map(function(d) return { line = d.lnum + 1, col = d.col + 1, message = d.message, code = d.code } end, vim.diagnostic.get(0))
end
local ok, err = pcall(function()
  out.version = vim.version()
  out.filetype = vim.bo.filetype
  out.arrived = vim.wait(${WAIT_S * 1000}, function() return #vim.diagnostic.get(0) > 0 end, 20)
  out.diagnostics = items()
  -- 'only' as one string, as Neovim 0.7's help shows it.
  local params = vim.lsp.util.make_range_params()
  params.context = { only = 'source.fixAll', diagnostics = {} }
  local answers, request_err = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, ${WAIT_S * 1000})
  out.string_only = { error = request_err, kinds = {} }
  for _, answer in pairs(answers or {}) do
    if answer.err then out.string_only.error = answer.err.message end
    for _, action in ipairs(answer.result or {}) do table.insert(out.string_only.kinds, action.kind) end
  end
  vim.cmd('Rst2FixAll')
  vim.cmd('silent write')
  out.cleared = vim.wait(${WAIT_S * 1000}, function() return #vim.diagnostic.get(0) == 0 end, 20)
  out.left = items()
end)
if not ok then out.error = tostring(err) end
local file = io.open(os.getenv('RST2_TEST_RESULT'), 'w')
file:write(vim.fn.json_encode(out))
file:close()
vim.cmd('qall!')
`;

    it('shows the diagnostic in the sphinx dialect the settings name, and :Rst2FixAll fixes the file', async function () {
      const version = editorVersion('nvim', 'neovim');
      const ws = new Workspace();
      try {
        const init = path.join(ws.dir, 'init.lua');
        fs.writeFileSync(init, recipe('recipe-neovim-0.7'));
        const driverFile = path.join(ws.dir, 'driver.lua');
        fs.writeFileSync(driverFile, driver);
        const xdg = (name: string) => path.join(ws.home, name);
        const run = await runEditor('nvim', ['--headless', '-i', 'NONE', '-n', '-u', init, ws.doc, '-c', `luafile ${driverFile}`], ws.project, ws.env({
          RST2_TEST_RESULT: ws.result,
          XDG_CONFIG_HOME: xdg('config'),
          XDG_DATA_HOME: xdg('data'),
          XDG_STATE_HOME: xdg('state'),
          XDG_CACHE_HOME: xdg('cache'),
        }));
        const result = ws.read<{
          version: { major: number; minor: number; patch: number };
          filetype: string;
          arrived: boolean;
          diagnostics: Array<{ line: number; col: number; message: string; code: string }>;
          string_only: { error?: string; kinds: string[] };
          cleared: boolean;
          left: unknown[];
          error?: string;
        }>(run);
        const context = `${version}; editor output:\n${run.output.slice(-3000)}`;
        expect(result.error, context).to.equal(undefined);
        expect(result.filetype, context).to.equal('rst');
        expect(result.arrived, `a diagnostic within ${WAIT_S} s; ${context}`).to.equal(true);
        // The role is known: the recipe's settings reached the server (Neovim 0.7 sends none by itself).
        expect(result.diagnostics, context).to.deep.equal([{ line: 4, col: 22, message: PROBLEM, code: RULE }]);
        expect(result.string_only, context).to.deep.equal({ kinds: ['source.fixAll'] });
        expect(result.cleared, `diagnostics cleared within ${WAIT_S} s of the fix; ${context}`).to.equal(true);
        expect(fs.readFileSync(ws.doc, 'utf8')).to.equal(FIXED);
        expect(ws.servers(), 'servers started').to.equal(1);
        expect(run.status, context).to.equal(0);
      } finally {
        ws.remove();
      }
    });
  });

  describe('the recipes for versions Debian 12 does not ship', () => {
    it('the Neovim 0.11 recipe compiles (LuaJIT of Neovim 0.7.2), and the .dir-locals.el form reads as the configuration', async function () {
      editorVersion('nvim', 'neovim');
      editorVersion('emacs', 'emacs-nox elpa-eglot');
      const ws = new Workspace();
      try {
        const lua = path.join(ws.dir, 'init.lua');
        fs.writeFileSync(lua, recipe('recipe-neovim-0.11'));
        const compile = `local f, e = loadfile(${JSON.stringify(lua)}) if not f then io.stderr:write(e) vim.cmd('cquit 1') end`;
        const nvim = await runEditor('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `lua ${compile}`, '-c', 'qall!'], ws.dir, ws.env({}));
        expect(nvim.status, nvim.output).to.equal(0);
        const locals = path.join(ws.project, '.dir-locals.el');
        fs.writeFileSync(locals, recipe('recipe-emacs-dir-locals'));
        // The file as Emacs reads it: for every mode (nil), the variable eglot sends.
        const read = `(progn (require 'json) (with-temp-buffer (insert-file-contents ${JSON.stringify(locals)}) (let ((form (read (current-buffer)))) (princ (json-encode (cdr (assq 'eglot-workspace-configuration (cdr (assq nil form)))))))))`;
        const emacs = await runEditor('emacs', ['--batch', '--eval', read], ws.project, ws.env({}));
        expect(emacs.status, emacs.output).to.equal(0);
        expect(JSON.parse(emacs.output.split('\n').filter((l) => l.startsWith('{')).pop() ?? 'null'), emacs.output).to.deep.equal({ rst2: { dialect: 'sphinx' } });
      } finally {
        ws.remove();
      }
    });
  });

  describe('Emacs (emacs-nox: 28.2, elpa-eglot: 1.9), the Emacs recipe', () => {
    // Waits with accept-process-output: it returns as soon as the server's output arrives.
    const driver = `
(defvar rst2-test-published nil "The number of diagnostics in each publishDiagnostics, newest first.")
(defun rst2-test-wait (predicate)
  (let ((deadline (+ (float-time) ${WAIT_S})))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (if (funcall predicate) t :false)))
(let ((out nil))
  (condition-case err
      (progn
        (push (cons 'version emacs-version) out)
        (find-file (getenv "RST2_TEST_DOC"))
        (push (cons 'mode (symbol-name major-mode)) out)
        ;; eglot-ensure connects after the command that visited the file: a
        ;; batch Emacs has no command loop, so run what it would run.
        (run-hooks 'post-command-hook)
        (unless (bound-and-true-p eglot--managed-mode)
          (error "eglot does not manage the buffer (see the messages above)"))
        (advice-add 'eglot-handle-notification :before
                    (lambda (_server method &rest params)
                      (when (eq method 'textDocument/publishDiagnostics)
                        (push (length (plist-get params :diagnostics)) rst2-test-published))))
        (push (cons 'arrived (rst2-test-wait (lambda () (flymake-diagnostics)))) out)
        (push (cons 'diagnostics
                    (vconcat (mapcar (lambda (d)
                                       (save-excursion
                                         (goto-char (flymake-diagnostic-beg d))
                                         (list :line (line-number-at-pos) :col (1+ (current-column))
                                               :text (flymake-diagnostic-text d))))
                                     (flymake-diagnostics))))
              out)
        (setq rst2-test-published nil)
        (rst2-fix-all)
        (save-buffer)
        ;; Cleared by the server: a publication with no diagnostic, after the fix.
        (push (cons 'cleared (rst2-test-wait (lambda () (and rst2-test-published (= 0 (car rst2-test-published))
                                                             (null (flymake-diagnostics))))))
              out))
    (error (push (cons 'error (error-message-string err)) out)))
  (with-temp-file (getenv "RST2_TEST_RESULT") (insert (json-encode out)))
  (kill-emacs 0))
`;

    it('shows the diagnostic in the sphinx dialect the configuration names, and rst2-fix-all fixes the file', async function () {
      const version = editorVersion('emacs', 'emacs-nox elpa-eglot');
      const ws = new Workspace();
      try {
        const init = path.join(ws.dir, 'init.el');
        fs.writeFileSync(init, recipe('recipe-emacs'));
        const driverFile = path.join(ws.dir, 'driver.el');
        fs.writeFileSync(driverFile, driver);
        // What Emacs does before it loads init.el, and a batch Emacs, which loads none, does not: activate the installed packages (Debian's elpa-eglot on Emacs 28).
        const run = await runEditor('emacs', ['--batch', '-f', 'package-activate-all', '-l', init, '-l', driverFile], ws.project, ws.env({ RST2_TEST_RESULT: ws.result, RST2_TEST_DOC: ws.doc }));
        const context = `${version}; editor output:\n${run.output.slice(-3000)}`;
        const result = ws.read<{ version: string; mode: string; arrived: boolean; diagnostics: Array<{ line: number; col: number; text: string }>; cleared: boolean; error?: string }>(run);
        if (result.error && /eglot/.test(result.error) && Number(result.version.split('.')[0]) < 29) {
          throw new Error(`${version} has no eglot (${result.error}): on Emacs 28 the recipe needs Debian's elpa-eglot (as root: apt-get install --no-install-recommends elpa-eglot).`);
        }
        expect(result.error, context).to.equal(undefined);
        expect(result.mode, context).to.equal('rst-mode');
        expect(result.arrived, `a diagnostic within ${WAIT_S} s; ${context}`).to.equal(true);
        // The role is known: the recipe's workspace configuration reached the server.
        expect(result.diagnostics, context).to.deep.equal([{ line: 4, col: 22, text: `rst2 [${RULE}]: ${PROBLEM}` }]);
        expect(result.cleared, `diagnostics cleared within ${WAIT_S} s of the fix; ${context}`).to.equal(true);
        expect(fs.readFileSync(ws.doc, 'utf8')).to.equal(FIXED);
        expect(ws.servers(), 'servers started').to.equal(1);
        expect(run.status, context).to.equal(0);
      } finally {
        ws.remove();
      }
    });
  });
});
