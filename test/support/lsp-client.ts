/**
 * A language client for `rst2 lsp` in a child process, made of
 * vscode-languageserver's own client side: createProtocolConnection over
 * vscode-jsonrpc's stream reader and writer on the child's pipes. It keeps
 * what the server publishes and says, and answers its configuration and
 * registration requests. Used by test/lsp.test.ts and bench/lsp.ts.
 */
import { expect } from 'chai';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

import {
  CodeActionRequest,
  CodeActionResolveRequest,
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShowMessageNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type CodeAction,
  type Diagnostic,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Range,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

import { projectRoot } from '../../src/paths.js';

const CLI = path.join(projectRoot, 'dist', 'src', 'cli.js');

export interface LspClientOptions {
  /** What the client answers when the server asks for the configuration section rst2. */
  settings?: Record<string, unknown>;
  /** The program and its first arguments, before `lsp`: default `node dist/src/cli.js`. */
  command?: string[];
  /** Default: this process's, without RST2_LOG_LEVEL. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** A client as an editor is one: the LSP over the child's pipes. */
export class LspClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly connection: ProtocolConnection;
  stderr = '';
  readonly protocolErrors: string[] = [];
  readonly shownMessages: string[] = [];
  readonly exited: Promise<number | null>;
  /** Every publishDiagnostics so far, in order. */
  readonly published: PublishDiagnosticsParams[] = [];
  private readonly waiters: Array<{ wants: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }> = [];
  /** What the client answers when the server asks for the configuration section rst2; change it, then send didChangeConfiguration. */
  settings: Record<string, unknown> | undefined;

  constructor(args: string[], options: LspClientOptions = {}) {
    let env = options.env;
    if (!env) {
      env = { ...process.env };
      delete env.RST2_LOG_LEVEL;
    }
    this.settings = options.settings;
    const [program, ...programArgs] = options.command ?? [process.execPath, CLI];
    this.child = spawn(program!, [...programArgs, 'lsp', ...args], { env, cwd: options.cwd, stdio: 'pipe' });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    this.connection.onError(([err]) => this.protocolErrors.push(err.message));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.published.push(params);
      for (const w of this.waiters.filter((w) => w.wants(params))) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(params);
      }
    });
    this.connection.onNotification(ShowMessageNotification.type, (params) => {
      this.shownMessages.push(params.message);
    });
    this.connection.onRequest(RegistrationRequest.type, () => {});
    this.connection.onRequest(ConfigurationRequest.type, (params) => params.items.map((item) => (item.section === 'rst2' ? (this.settings ?? null) : null)));
    this.connection.listen();
  }

  initialize(capabilities: ClientCapabilities, initializationOptions?: unknown): Promise<InitializeResult> {
    return this.connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities, initializationOptions });
  }

  /** The diagnostics published for this version of the document (the server publishes only for the version it checked). */
  diagnostics(uri: string, version: number, timeoutMs = 120_000): Promise<PublishDiagnosticsParams> {
    const wants = (p: PublishDiagnosticsParams) => p.uri === uri && p.version === version;
    const seen = this.published.find(wants);
    return seen ? Promise.resolve(seen) : this.wait(wants, `diagnostics for ${uri} version ${version}`, timeoutMs);
  }

  /** The next diagnostics published for the document, whatever their version. */
  next(uri: string, timeoutMs = 120_000): Promise<PublishDiagnosticsParams> {
    return this.wait((p) => p.uri === uri, `more diagnostics for ${uri}`, timeoutMs);
  }

  private wait(wants: (p: PublishDiagnosticsParams) => boolean, what: string, timeoutMs: number): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what}; stderr: ${this.stderr}`)), timeoutMs);
      this.waiters.push({ wants, resolve: (p) => (clearTimeout(timer), resolve(p)) });
    });
  }

  open(document: TextDocument): void {
    void this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: document.uri, languageId: 'restructuredtext', version: document.version, text: document.getText() },
    });
  }

  /** Changes the document by edits (sent as incremental changes) and returns its next version. */
  change(document: TextDocument, edits: TextEdit[]): TextDocument {
    const text = TextDocument.applyEdits(document, edits);
    // Incremental changes apply one after another: send them from the end of the text back.
    const ordered = [...edits].sort((a, b) => document.offsetAt(b.range.start) - document.offsetAt(a.range.start));
    const next = TextDocument.create(document.uri, document.languageId, document.version + 1, text);
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: document.uri, version: next.version },
      contentChanges: ordered.map((e) => ({ range: e.range, text: e.newText })),
    });
    return next;
  }

  codeActions(document: TextDocument, range: Range, diagnostics: Diagnostic[], only?: string[] | string): Promise<CodeAction[]> {
    return this.connection
      .sendRequest(CodeActionRequest.type, { textDocument: { uri: document.uri }, range, context: only ? { diagnostics, only: only as string[] } : { diagnostics } })
      .then((actions) => (actions ?? []).filter((a): a is CodeAction => 'title' in a && !('command' in a && typeof a.command === 'string')));
  }

  resolve(action: CodeAction): Promise<CodeAction> {
    return this.connection.sendRequest(CodeActionResolveRequest.type, action);
  }

  async stop(): Promise<number | null> {
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    return this.exited;
  }
}

/** The text edits a workspace edit makes in one document, whichever form it takes. */
export function editsIn(edit: WorkspaceEdit | undefined, document: TextDocument): TextEdit[] {
  expect(edit, 'a workspace edit').to.not.equal(undefined);
  if (edit!.changes) return edit!.changes[document.uri] ?? [];
  const changes = (edit!.documentChanges ?? []).filter((c) => 'textDocument' in c && c.textDocument.uri === document.uri);
  for (const change of changes) if ('textDocument' in change) expect(change.textDocument.version, 'the edit names the version it was made for').to.equal(document.version);
  return changes.flatMap((c) => ('edits' in c ? c.edits.filter((e): e is TextEdit => 'range' in e) : []));
}

export function applyEdit(document: TextDocument, edit: WorkspaceEdit | undefined): string {
  return TextDocument.applyEdits(document, editsIn(edit, document));
}

function line(n: number): Range {
  return { start: { line: n, character: 0 }, end: { line: n, character: 0 } };
}
