/**
 * `rst2 lsp`, run for real: `node dist/src/cli.js lsp` in a child process,
 * spoken to over its standard input and output by vscode-languageserver's
 * own client side (test/support/lsp-client.ts), as an editor would:
 * initialize, open, change, ask for code actions, apply them, shut down. Every wait is for a message
 * from the server, never a sleep.
 */
import { expect } from 'chai';

import {
  CodeActionKind,
  DiagnosticSeverity,
  DidChangeConfigurationNotification,
  DidCloseTextDocumentNotification,
  InitializedNotification,
  type Diagnostic,
  type Range,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

import { applyEdit, editsIn, LspClient } from './support/lsp-client.js';

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
          code: 'title-underline',
        },
      ]);
      // "🎉 *party": the star is code point column 3 (1-based), and UTF-16
      // character 3 (0-based): the emoji takes two code units.
      expect(byLine(3).map((d) => [d.range, d.code])).to.deep.equal([
        [{ start: { line: 3, character: 3 }, end: { line: 3, character: 4 } }, 'inline-start-without-end'],
      ]);
      // A problem without a fix covers its whole line; errors are errors.
      expect(byLine(7)).to.deep.equal([
        {
          range: { start: { line: 7, character: 0 }, end: { line: 7, character: 13 } },
          severity: DiagnosticSeverity.Error,
          source: 'rst2',
          message: 'Unknown directive type "nosuch".',
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
          { dialect: 'sphinx' },
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
          [{ start: { line: 5, character: 0 }, end: { line: 5, character: 17 } }, 'Unknown interpreted text role "ref".'],
        ]);
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
        expect(client.shownMessages).to.deep.equal(['rst2: unknown dialect "nosuch"; choose one of docutils, sphinx, pypi.']);
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
