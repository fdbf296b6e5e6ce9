/**
 * `rst2 lsp`, run for real: `node dist/src/cli.js lsp` in a child process,
 * spoken to over its standard input and output by vscode-languageserver's
 * own client side (test/support/lsp-client.ts), as an editor would:
 * initialize, open, change, ask for code actions, apply them, shut down. Every wait is for a message
 * from the server (or its exit), never a sleep. One test runs the server in
 * this process, to share its engine with a job that keeps it busy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';

import { expect } from 'chai';

import {
  CodeActionKind,
  createProtocolConnection,
  DiagnosticSeverity,
  DidChangeConfigurationNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type PublishDiagnosticsParams,
  type Range,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

import { loadConfig, LSP_LIMITS } from '../src/config.js';
import { createPythonEngine } from '../src/engines/create.js';
import { createLogger } from '../src/log.js';
import { LanguageServer, type CheckEngine } from '../src/lsp/server.js';
import { paths } from '../src/paths.js';
import { applyEdit, editsIn, LspClient } from './support/lsp-client.js';

// Where a diagnostic's codeDescription links without a docsUrl: the rules page's source, each rule a section.
const RULES_PAGE = pathToFileURL(path.join(paths.docs, 'rules.rst')).href;

const WAIT_MS = 120_000;

/** A title underline one short (line 2), an emphasis star after an emoji (line 4), a Sphinx role (line 6), an unknown directive (line 8), a misspelt target (line 10). */
const DOC = [
  'Title', // 1
  '====', // 2
  '', // 3
  '🎉 *party', // 4
  '', // 5
  'See :ref:`intro`.', // 6
  '', // 7
  '.. nosuch:: x', // 8
  '', // 9
  'See Mising_.', // 10
  '', // 11
  '.. _missing: https://example.org/', // 12
  '',
].join('\n');

function line(n: number): Range {
  return { start: { line: n, character: 0 }, end: { line: n, character: 0 } };
}

/** A message as the base protocol frames it; `length` overrides its Content-Length header line. */
function frame(message: object, header?: string): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`${header ?? `Content-Length: ${body.length}`}\r\n\r\n`, 'ascii'), body]);
}

/** The messages framed in bytes the server wrote. */
function framesIn(bytes: Buffer): unknown[] {
  const messages: unknown[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    const length = /Content-Length: (\d+)/.exec(bytes.subarray(at, end).toString('ascii'));
    expect(length, `a header at byte ${at} of what the server wrote`).to.not.equal(null);
    const body = end + 4;
    messages.push(JSON.parse(bytes.subarray(body, body + Number(length![1])).toString('utf8')));
    at = body + Number(length![1]);
  }
  return messages;
}

/** `promise`, or a failure naming `what` if it has not settled within `ms`: a broken server fails the test at once rather than at mocha's timeout. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('rst2 lsp', function () {
  this.timeout(WAIT_MS * 2);

  describe('a client that resolves code actions, dialect from initializationOptions', function () {
    let client: LspClient;
    let doc: TextDocument;
    let first: Diagnostic[];

    before(async function () {
      client = new LspClient([]);
      const init = await client.initialize(
        { textDocument: { codeAction: { resolveSupport: { properties: ['edit'] }, codeActionLiteralSupport: { codeActionKind: { valueSet: [] } } } } },
        { dialect: 'sphinx' },
      );
      expect(init.capabilities.codeActionProvider).to.deep.include({ resolveProvider: true });
      expect(init.serverInfo?.name).to.equal('rst2');
      await client.connection.sendNotification(InitializedNotification.type, {});
      doc = TextDocument.create('file:///tmp/rst2-lsp/doc.rst', 'restructuredtext', 1, DOC);
      client.open(doc);
      first = (await client.diagnostics(doc.uri, 1)).diagnostics;
    });

    after(async function () {
      if (client.child.exitCode === null) client.child.kill();
    });

    it('publishes the check as diagnostics on the opened document, in UTF-16 positions', function () {
      const byLine = (n: number) => first.filter((d) => d.range.start.line === n);
      // A problem with a fix sits on its first edit: the underline, columns 1-5 in code points.
      expect(byLine(1)).to.deep.equal([
        {
          range: { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } },
          severity: DiagnosticSeverity.Warning,
          source: 'rst2',
          message: 'Title underline too short.',
          code: 'title-underline-too-short',
          codeDescription: { href: `${RULES_PAGE}#title-underline-too-short` },
        },
      ]);
      // "🎉 *party": the star is code point column 3 (1-based), and UTF-16
      // character 3 (0-based): the emoji takes two code units.
      expect(byLine(3).map((d) => [d.range, d.code])).to.deep.equal([
        [{ start: { line: 3, character: 3 }, end: { line: 3, character: 4 } }, 'inline-start-without-end'],
      ]);
      // A problem that names what is wrong sits on the name; errors are errors.
      expect(byLine(7)).to.deep.equal([
        {
          range: { start: { line: 7, character: 3 }, end: { line: 7, character: 9 } },
          severity: DiagnosticSeverity.Error,
          source: 'rst2',
          message: 'Unknown directive type "nosuch".',
          code: 'unknown-directive',
          codeDescription: { href: `${RULES_PAGE}#unknown-directive` },
        },
      ]);
      expect(byLine(9).map((d) => [d.message, d.code])).to.deep.equal([['Unknown target name: "mising".', 'unknown-target']]);
      // The Sphinx dialect of the initializationOptions knows :ref:.
      expect(byLine(5)).to.deep.equal([]);
      expect(first).to.have.length(4);
    });

    it('offers a problem\'s fix as a quick fix, safe ones preferred, with UTF-16 edits that fix the text', async function () {
      const onLine = first.filter((d) => d.range.start.line === 3);
      const actions = await client.codeActions(doc, { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, onLine);
      const quick = actions.filter((a) => a.kind === CodeActionKind.QuickFix);
      expect(quick).to.have.length(1);
      expect(quick[0]!.title).to.equal("Escape the emphasis start-string '*'");
      expect(quick[0]!.isPreferred).to.equal(true);
      expect(quick[0]!.diagnostics).to.deep.equal(onLine);
      expect(editsIn(quick[0]!.edit, doc)).to.deep.equal([{ range: { start: { line: 3, character: 3 }, end: { line: 3, character: 4 } }, newText: '\\*' }]);
      expect(applyEdit(doc, quick[0]!.edit).split('\n')[3]).to.equal('🎉 \\*party');
      // A suggested fix is offered, not preferred.
      const suggested = (await client.codeActions(doc, line(9), [])).filter((a) => a.kind === CodeActionKind.QuickFix);
      expect(suggested.map((a) => [a.title, a.isPreferred])).to.deep.equal([['Refer to the target "missing"', undefined]]);
      // The reference keeps the author's capital: names are compared without case.
      expect(applyEdit(doc, suggested[0]!.edit).split('\n')[9]).to.equal('See Missing_.');
      // No fix, no action; and a line with no problem has none.
      expect(await client.codeActions(doc, line(7), [], [CodeActionKind.QuickFix])).to.deep.equal([]);
      expect(await client.codeActions(doc, line(2), [], [CodeActionKind.QuickFix])).to.deep.equal([]);
    });

    it('applies a quick fix, and the changed document gets new diagnostics', async function () {
      const [action] = (await client.codeActions(doc, line(3), [])).filter((a) => a.kind === CodeActionKind.QuickFix);
      doc = client.change(doc, editsIn(action!.edit, doc));
      expect(doc.getText().split('\n')[3]).to.equal('🎉 \\*party');
      const after = (await client.diagnostics(doc.uri, doc.version)).diagnostics;
      expect(after.map((d) => d.range.start.line)).to.deep.equal([1, 7, 9]);
      // A change that brings a new problem: an unknown role after an emoji and an accented letter.
      doc = client.change(doc, [{ range: { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } }, newText: 'é🎉🎉 **loud\n' }]);
      const changed = (await client.diagnostics(doc.uri, doc.version)).diagnostics;
      const loud = changed.filter((d) => d.range.start.line === 4);
      // "**" starts at code point column 5: UTF-16 character 6 (two emoji, one unit for é).
      expect(loud.map((d) => [d.message, d.range])).to.deep.equal([
        ['Inline strong start-string without end-string.', { start: { line: 4, character: 6 }, end: { line: 4, character: 8 } }],
      ]);
      const [escape] = await client.codeActions(doc, line(4), loud, [CodeActionKind.QuickFix]);
      expect(applyEdit(doc, escape!.edit).split('\n')[4]).to.equal('é🎉🎉 \\*\\*loud');
    });

    it('offers source.fixAll, whose resolved edit applies every safe fix', async function () {
      const actions = await client.codeActions(doc, line(0), [], [CodeActionKind.SourceFixAll]);
      expect(actions.map((a) => a.kind)).to.deep.equal([CodeActionKind.SourceFixAll]);
      // Neovim 0.7 sends `only` as one string, as its help shows it.
      expect((await client.codeActions(doc, line(0), [], CodeActionKind.SourceFixAll)).map((a) => a.kind)).to.deep.equal([CodeActionKind.SourceFixAll]);
      expect(actions[0]!.edit, 'resolved later').to.equal(undefined);
      const resolved = await client.resolve(actions[0]!);
      const fixed = applyEdit(doc, resolved.edit);
      expect(fixed.split('\n').slice(0, 5)).to.deep.equal(['Title', '=====', '', '🎉 \\*party', 'é🎉🎉 \\*\\*loud']);
      doc = client.change(doc, editsIn(resolved.edit, doc));
      expect(doc.getText()).to.equal(fixed);
      const left = (await client.diagnostics(doc.uri, doc.version)).diagnostics;
      // What is left has no safe fix: the unknown directive, and the misspelt target (a suggested fix).
      expect(left.map((d) => d.message)).to.deep.equal(['Unknown directive type "nosuch".', 'Unknown target name: "mising".']);
      expect(await client.codeActions(doc, line(0), [], [CodeActionKind.SourceFixAll])).to.deep.equal([]);
    });

    it('checks changes that come together once, and publishes for the last version only', async function () {
      const before = client.published.length;
      const start = doc.version;
      for (let i = 0; i < 5; i++) doc = client.change(doc, [{ range: line(2), newText: `*burst${i}\n` }]);
      const last = await client.diagnostics(doc.uri, doc.version);
      expect(last.diagnostics.filter((d) => d.range.start.line <= 6).map((d) => d.message)).to.deep.equal(
        Array.from({ length: 5 }, () => 'Inline emphasis start-string without end-string.'),
      );
      // The server reads the five notifications at once: at most a check already under way, then one of the last version.
      const versions = client.published.slice(before).filter((p) => p.uri === doc.uri).map((p) => p.version!);
      expect(versions.length).to.be.at.most(2);
      expect(versions.at(-1)).to.equal(start + 5);
      expect(versions).to.deep.equal([...versions].sort((a, b) => a - b));
    });

    it('clears the diagnostics of a closed document', async function () {
      const cleared = client.next(doc.uri);
      void client.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: doc.uri } });
      expect(await cleared).to.deep.equal({ uri: doc.uri, diagnostics: [] });
    });

    it('ends with status 0 at shutdown and exit, having written nothing but the protocol', async function () {
      expect(await client.stop()).to.equal(0);
      expect(client.protocolErrors).to.deep.equal([]);
      expect(client.shownMessages).to.deep.equal([]);
    });
  });

  describe('a client with workspace configuration and versioned edits, no resolve', function () {
    it('takes rst2.dialect from the configuration over initializationOptions (asked again when it changes), and computes source.fixAll at once', async function () {
      const client = new LspClient([], { settings: { dialect: 'docutils' } });
      try {
        await client.initialize(
          { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, workspaceEdit: { documentChanges: true } } },
          { dialect: 'sphinx', docsUrl: 'https://rst2.example.org/docs' },
        );
        await client.connection.sendNotification(InitializedNotification.type, {});
        // \r\n line ends and a U+2028 inside a line: docutils counts that as a line break, LSP does not.
        const text = 'Title\r\n====\r\n\r\nA\u2028line, then 🎉 *party.\r\n\r\nSee :ref:`intro`.\r\n';
        const doc = TextDocument.create('file:///tmp/rst2-lsp/crlf.rst', 'restructuredtext', 7, text);
        client.open(doc);
        const diagnostics = (await client.diagnostics(doc.uri, 7)).diagnostics;
        expect(diagnostics.map((d) => [d.range, d.message])).to.deep.equal([
          [{ start: { line: 1, character: 0 }, end: { line: 1, character: 4 } }, 'Title underline too short.'],
          // Docutils' line 5 column 14 is LSP's line 3 character 16: after "A", U+2028 and "line, then ", the emoji takes two units.
          [{ start: { line: 3, character: 16 }, end: { line: 3, character: 17 } }, 'Inline emphasis start-string without end-string.'],
          // The role's name, where a fix would rename it.
          [{ start: { line: 5, character: 5 }, end: { line: 5, character: 8 } }, 'Unknown interpreted text role "ref".'],
        ]);
        // docsUrl names a service's manual: each rule links to its section there.
        expect(diagnostics[0]!.codeDescription).to.deep.equal({ href: 'https://rst2.example.org/docs/rules.html#title-underline-too-short' });
        const actions = await client.codeActions(doc, line(0), [], [CodeActionKind.SourceFixAll]);
        expect(actions).to.have.length(1);
        const fixed = applyEdit(doc, actions[0]!.edit);
        expect(fixed).to.equal('Title\r\n=====\r\n\r\nA\u2028line, then 🎉 \\*party.\r\n\r\nSee :ref:`intro`.\r\n');
        const [quick] = await client.codeActions(doc, line(3), [], [CodeActionKind.QuickFix]);
        expect(editsIn(quick!.edit, doc)).to.deep.equal([{ range: { start: { line: 3, character: 16 }, end: { line: 3, character: 17 } }, newText: '\\*' }]);
        // A new configuration is asked for again and the documents checked again; an unknown
        // dialect is shown once and left for the initializationOptions' (sphinx: :ref: is known).
        client.settings = { dialect: 'nosuch' };
        const again = client.next(doc.uri);
        void client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
        expect((await again).diagnostics.map((d) => d.message)).to.deep.equal(['Title underline too short.', 'Inline emphasis start-string without end-string.']);
        expect(client.shownMessages).to.deep.equal(['rst2: unknown dialect "nosuch"; choose one of docutils, sphinx, pypi, github.']);
        expect(await client.stop()).to.equal(0);
        expect(client.protocolErrors).to.deep.equal([]);
      } finally {
        if (client.child.exitCode === null) client.child.kill();
      }
    });
  });

  describe("a file's project: its config, its conf.py, its suppression comments", function () {
    it('checks a file on disk as rst2 check does, and shows a broken config once, checking without it', async function () {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-lsp-project-'));
      const client = new LspClient([]);
      try {
        fs.writeFileSync(path.join(root, 'rst2.toml'), 'roles = ["issue"]\nignore = ["title-underline-too-short"]\n');
        fs.mkdirSync(path.join(root, 'docs'));
        fs.writeFileSync(path.join(root, 'docs', 'conf.py'), 'extensions = ["sphinx.ext.todo"]\nextlinks = {"gh": ("https://github.com/o/r/issues/%s", "gh-%s")}\n');
        fs.mkdirSync(path.join(root, 'broken'));
        fs.writeFileSync(path.join(root, 'broken', 'rst2.toml'), 'dialect = 3\n');
        await client.initialize({});
        await client.connection.sendNotification(InitializedNotification.type, {});
        const text = 'Title\n====\n\nSee :issue:`1`, :gh:`2` and :ref:`x`.\n\n.. todo:: later\n\n.. rst2: disable-next unknown-role\n\n:bogus:`y`\n\nAnd :nosuch:`z`.\n';
        const page = TextDocument.create(pathToFileURL(path.join(root, 'docs', 'page.rst')).href, 'restructuredtext', 1, text);
        client.open(page);
        // The config declares :issue: and leaves out short underlines; the conf.py makes it Sphinx (:ref:), with :gh: and todo; the comment silences :bogus:.
        expect((await client.diagnostics(page.uri, 1, WAIT_MS)).diagnostics.map((d) => [d.range.start.line, d.code, d.message])).to.deep.equal([
          [11, 'unknown-role', 'Unknown interpreted text role "nosuch".'],
        ]);
        // The same text outside any project: plain docutils, every rule.
        const loose = TextDocument.create('untitled:loose', 'restructuredtext', 1, text);
        client.open(loose);
        expect((await client.diagnostics(loose.uri, 1, WAIT_MS)).diagnostics.map((d) => d.code)).to.include.members(['title-underline-too-short', 'unknown-role', 'unknown-directive']);
        // A file of another host's, which this machine cannot open: checked as a loose document.
        const remote = TextDocument.create('file://elsewhere/share/page.rst', 'restructuredtext', 1, 'Title\n====\n');
        client.open(remote);
        expect((await client.diagnostics(remote.uri, 1, WAIT_MS)).diagnostics.map((d) => d.code)).to.deep.equal(['title-underline-too-short']);
        const bad = TextDocument.create(pathToFileURL(path.join(root, 'broken', 'page.rst')).href, 'restructuredtext', 1, 'Title\n====\n');
        client.open(bad);
        expect((await client.diagnostics(bad.uri, 1, WAIT_MS)).diagnostics.map((d) => d.code)).to.deep.equal(['title-underline-too-short']);
        expect(client.shownMessages).to.have.length(1);
        expect(client.shownMessages[0]).to.match(/broken\/rst2\.toml: dialect: .*checked without the project's configuration/);
        expect(await client.stop()).to.equal(0);
      } finally {
        if (client.child.exitCode === null) client.child.kill();
        fs.rmSync(root, { recursive: true, force: true });
      }
    });
  });

  describe('many documents opened at once', function () {
    it('checks every one of 100 documents, queueing its checks instead of having the engine refuse them', async function () {
      const client = new LspClient([]);
      try {
        await client.initialize({});
        await client.connection.sendNotification(InitializedNotification.type, {});
        // Each document has its own problem, so each diagnostic shows its own text was checked.
        const docs = Array.from({ length: 100 }, (_, i) =>
          TextDocument.create(`file:///tmp/rst2-lsp/many/${i}.rst`, 'restructuredtext', 1, `Title\n=====\n\nSee Mising${i}_.\n`),
        );
        // One write: the server reads the 100 didOpen notifications together, as an editor restoring a session sends them.
        client.child.stdin.write(
          Buffer.concat(
            docs.map((d) =>
              frame({
                jsonrpc: '2.0',
                method: DidOpenTextDocumentNotification.method,
                params: { textDocument: { uri: d.uri, languageId: 'restructuredtext', version: 1, text: d.getText() } },
              }),
            ),
          ),
        );
        const published = await Promise.all(docs.map((d) => client.diagnostics(d.uri, 1)));
        published.forEach((p, i) => {
          expect(p.diagnostics.map((d) => [d.range.start.line, d.message]), docs[i]!.uri).to.deep.equal([[3, `Unknown target name: "mising${i}".`]]);
        });
        expect(client.published.filter((p) => p.diagnostics.some((d) => typeof d.message === 'string' && d.message.startsWith('rst2 could not check')))).to.deep.equal([]);
        expect(await client.stop()).to.equal(0);
        expect(client.protocolErrors).to.deep.equal([]);
      } finally {
        if (client.child.exitCode === null) client.child.kill();
      }
    });
  });

  describe('a check the engine refuses for being busy', function () {
    it('is tried again until the engine takes it, not shown as the document\'s problem', async function () {
      // The server shares an engine with no queue (RST2_QUEUE_LIMIT=0) and one
      // worker with this test, which keeps that worker busy until the server
      // has been refused once.
      const lines: Array<Record<string, unknown>> = [];
      let refused!: () => void;
      const wasRefused = new Promise<void>((resolve) => (refused = resolve));
      const log = createLogger('debug', (text) => {
        const entry = JSON.parse(text) as Record<string, unknown>;
        lines.push(entry);
        if (typeof entry.msg === 'string' && entry.msg.startsWith('check refused by a busy engine')) refused();
      });
      // No heap budget: a worker being recycled has a successor beside it, a second worker the server could get.
      const engine = createPythonEngine({ ...loadConfig({}), queueLimit: 0, workerHeapBudgetBytes: 0 }, log, 1);
      const started = engine.start();
      const shared: CheckEngine = {
        start: () => started,
        close: () => Promise.resolve(),
        check: (source, dialect) => engine.check(source, dialect),
        fix: (source, dialect, unsafe) => engine.fix(source, dialect, unsafe),
      };
      const toServer = new PassThrough();
      const fromServer = new PassThrough();
      let exited!: (status: number) => void;
      const exit = new Promise<number>((resolve) => (exited = resolve));
      const server = new LanguageServer({ input: toServer, output: fromServer, engine: () => shared, log, exit: (status) => exited(status) });
      server.listen();
      const client = createProtocolConnection(new StreamMessageReader(fromServer), new StreamMessageWriter(toServer));
      const published = new Promise<PublishDiagnosticsParams>((resolve) => client.onNotification(PublishDiagnosticsNotification.type, resolve));
      client.listen();
      try {
        await client.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} });
        await started;
        // Each busy check starts in the same turn as the one before ends (only
        // promise callbacks run between), so the server, which reads its
        // messages in other turns, never finds the worker free until then.
        let busy = true;
        const keepBusy = (async () => {
          while (busy) await engine.check('Busy\n====\n\n' + '* item\n'.repeat(300), 'docutils');
        })();
        await client.sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri: 'file:///tmp/rst2-lsp/busy.rst', languageId: 'restructuredtext', version: 1, text: DOC },
        });
        const first = await Promise.race([wasRefused.then(() => 'refused'), published.then(() => 'published, never refused')]);
        busy = false;
        await keepBusy;
        expect(first).to.equal('refused');
        const diagnostics = (await published).diagnostics;
        expect(diagnostics.map((d) => d.message)).to.deep.equal([
          'Title underline too short.',
          'Inline emphasis start-string without end-string.',
          'Unknown interpreted text role "ref".',
          'Unknown directive type "nosuch".',
          'Unknown target name: "mising".',
        ]);
        expect(lines.filter((l) => l.msg === 'check failed')).to.deep.equal([]);
        // The end of the input after a shutdown: status 0 (the exit notification would end this process).
        await client.sendRequest(ShutdownRequest.type);
        toServer.end();
        expect(await within(exit, 10_000, 'end of the server')).to.equal(0);
      } finally {
        client.dispose();
        await engine.close();
      }
    });
  });

  describe('a stream that cannot be read as messages', function () {
    const open = {
      jsonrpc: '2.0',
      method: DidOpenTextDocumentNotification.method,
      params: { textDocument: { uri: 'file:///tmp/rst2-lsp/framing.rst', languageId: 'restructuredtext', version: 1, text: DOC } },
    };
    const body = frame(open).subarray(frame(open).indexOf('\r\n\r\n') + 4);
    const shutdown = frame({ jsonrpc: '2.0', id: 2, method: ShutdownRequest.method });
    const cases: Array<{ what: string; bytes: Buffer; reason: string }> = [
      { what: 'a Content-Length too short', bytes: frame(open, `Content-Length: ${body.length - 10}`), reason: `a message body of ${body.length - 10} bytes is not JSON` },
      {
        what: 'a Content-Length too long, then the next message',
        bytes: frame(open, `Content-Length: ${body.length + 1000}`),
        reason: `a message body holds the header of another message: its Content-Length (${body.length + 1000}) is longer than its body`,
      },
      { what: 'a Content-Length that is not a number', bytes: frame(open, 'Content-Length: twelve'), reason: 'bad message header: Content-Length "twelve" is not a number of bytes' },
      { what: 'a negative Content-Length', bytes: frame(open, 'Content-Length: -5'), reason: 'bad message header: Content-Length "-5" is not a number of bytes' },
      {
        what: 'no Content-Length',
        bytes: frame(open, 'Content-Type: application/vscode-jsonrpc; charset=utf-8'),
        reason: 'bad message header: no Content-Length in "Content-Type: application/vscode-jsonrpc; charset=utf-8\\r\\n\\r\\n"',
      },
      {
        what: 'a Content-Length over the limit',
        bytes: frame(open, 'Content-Length: 1000000000000'),
        reason: `bad message header: Content-Length 1000000000000 is over the limit of ${LSP_LIMITS.maxMessageBytes} bytes`,
      },
      {
        what: 'a header that does not end',
        bytes: frame(open, `X-Padding: ${'a'.repeat(LSP_LIMITS.maxHeaderBytes)}`),
        reason: `bad message header: longer than ${LSP_LIMITS.maxHeaderBytes} bytes`,
      },
      { what: 'a body as the header (no header at all)', bytes: body, reason: 'bad message header: byte 0x7b where a header name and ":" should be, after ""' },
    ];

    /** Starts the server, sends `bytes` after initialize (then a shutdown, unless `alone`), and returns how it ended. */
    async function send(bytes: Buffer, alone = false): Promise<{ status: number | null; answers: unknown[]; stderr: string }> {
      const client = new LspClient([]);
      const out: Buffer[] = [];
      client.child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      try {
        await client.initialize({});
        client.child.stdin.write(alone ? bytes : Buffer.concat([bytes, shutdown]));
        const status = await within(client.exited, LSP_LIMITS.stallMs + 30_000, `exit; stderr: ${client.stderr}`);
        return { status, answers: framesIn(Buffer.concat(out)).slice(1), stderr: client.stderr };
      } finally {
        if (client.child.exitCode === null) client.child.kill();
      }
    }

    function expectParseErrorAndExit(ended: { status: number | null; answers: unknown[]; stderr: string }, reason: string): void {
      expect(ended.status).to.equal(1);
      expect(ended.stderr).to.include(`rst2 lsp: cannot read the client's messages: ${reason}`);
      // JSON-RPC's parse error, with no id since no request could be read; the shutdown after is not answered.
      expect(ended.answers).to.have.length(1);
      expect(ended.answers[0]).to.have.property('id', null);
      expect(ended.answers[0]).to.have.nested.property('error.code', -32700);
      expect(ended.answers[0]).to.have.nested.property('error.message').that.includes(reason);
    }

    for (const { what, bytes, reason } of cases) {
      it(`${what}: answers a parse error, says why on standard error and exits 1`, async function () {
        expectParseErrorAndExit(await send(bytes), reason);
      });
    }

    it(`a Content-Length too long, then nothing: the same once nothing more came for ${LSP_LIMITS.stallMs} ms`, async function () {
      const ended = await send(frame(open, `Content-Length: ${body.length + 1}`), true);
      expectParseErrorAndExit(ended, `a message stopped in the middle for ${LSP_LIMITS.stallMs} ms`);
    });
  });

  describe('what is large, many, or odd', function () {
    it('checks a 9.5 MB didOpen, 5,000 didChange as few checks, lone surrogates, and changes at absurd positions', async function () {
      const client = new LspClient([]);
      try {
        await client.initialize({});
        await client.connection.sendNotification(InitializedNotification.type, {});
        // One line of 9.5 MB: docutils' own line length limit answers it, in seconds.
        const big = TextDocument.create('file:///tmp/rst2-lsp/big.rst', 'restructuredtext', 1, `Title\n=====\n\n${'word '.repeat(1_900_000)}\n`);
        client.open(big);
        // The rules that read the source run too (the line ends in a space), within the same time.
        expect((await client.diagnostics(big.uri, 1)).diagnostics.map((d) => d.message)).to.deep.equal(['Line 4 exceeds the line-length-limit.', 'Trailing whitespace.']);

        // The didOpen and 5,000 didChange in one write, as a fast typist's editor could send them while the server is busy.
        const uri = 'file:///tmp/rst2-lsp/burst.rst';
        const burst = [frame({ jsonrpc: '2.0', method: DidOpenTextDocumentNotification.method, params: { textDocument: { uri, languageId: 'restructuredtext', version: 1, text: 'Title\n=====\n\n' } } })];
        for (let version = 2; version <= 5001; version++) {
          const text = version === 5001 ? '*' : 'x';
          burst.push(frame({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version }, contentChanges: [{ range: line(3), text }] } }));
        }
        client.child.stdin.write(Buffer.concat(burst));
        const last = await client.diagnostics(uri, 5001);
        // The burst's text ends without a line break: that is reported too, where the break would go.
        expect(last.diagnostics.map((d) => [d.message, d.range.start])).to.deep.equal([
          ['Inline emphasis start-string without end-string.', { line: 3, character: 0 }],
          ['No line break at the end of the file.', { line: 3, character: 0 }],
        ]);
        // Coalesced: a check runs between the pipe's chunks of the burst
        // (64 KiB each, 16 for its 1 MB), not one per change. On an idle
        // machine the whole burst is read before the first check ends and
        // this is 2; on a loaded one, one check per chunk read meanwhile.
        expect(client.published.filter((p) => p.uri === uri).length).to.be.at.most(20);

        // Lone surrogates count as one code point each, as in Python: the star stays at UTF-16 character 2.
        const lone = TextDocument.create('file:///tmp/rst2-lsp/lone.rst', 'restructuredtext', 1, 'Ti\ud800tle\n======\n\n\udc00 *x\n');
        client.open(lone);
        expect((await client.diagnostics(lone.uri, 1)).diagnostics.map((d) => [d.message, d.range])).to.deep.equal([
          ['Inline emphasis start-string without end-string.', { start: { line: 3, character: 2 }, end: { line: 3, character: 3 } }],
        ]);

        // Positions past the end and negative ones are clamped to the text, as TextDocument does.
        void client.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri: lone.uri, version: 2 },
          contentChanges: [{ range: { start: { line: 1e9, character: -5 }, end: { line: -1, character: 2 ** 40 } }, text: '*y' }],
        });
        expect((await client.diagnostics(lone.uri, 2)).diagnostics.map((d) => d.message)).to.deep.equal(['Inline emphasis start-string without end-string.', 'No line break at the end of the file.']);
        const absurd = { start: { line: 1e9, character: 1e9 }, end: { line: -3, character: -1 } };
        const actions = await client.codeActions(TextDocument.create(lone.uri, 'restructuredtext', 2, '*y'), absurd, []);
        expect(actions.map((a) => a.kind)).to.include(CodeActionKind.SourceFixAll);

        // A well-framed message vscode-jsonrpc's handling throws on ($/cancelRequest reads params.id) ends nothing.
        client.child.stdin.write(frame({ jsonrpc: '2.0', method: '$/cancelRequest' }));
        const after = TextDocument.create('file:///tmp/rst2-lsp/after-cancel.rst', 'restructuredtext', 1, 'A *b\n');
        client.open(after);
        expect((await client.diagnostics(after.uri, 1)).diagnostics.map((d) => d.message)).to.deep.equal(['Inline emphasis start-string without end-string.']);
        expect(await client.stop()).to.equal(0);
        expect(client.protocolErrors).to.deep.equal([]);
      } finally {
        if (client.child.exitCode === null) client.child.kill();
      }
    });
  });

  it('refuses an unknown --dialect with the usage and status 2', async function () {
    const client = new LspClient(['--dialect', 'nosuch']);
    expect(await client.exited).to.equal(2);
    expect(client.stderr).to.include('unknown dialect "nosuch"');
    expect(client.stderr).to.include('rst2 lsp');
  });
});
