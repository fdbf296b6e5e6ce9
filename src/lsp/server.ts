/**
 * rst2 as a language server (`rst2 lsp`): the Language Server Protocol over
 * a pair of streams, through vscode-languageserver's connection and
 * TextDocuments, with the service's check and fix.
 *
 * - Diagnostics: each change of an open document schedules a check of it
 *   (after debounceMs, which a further change restarts; none by default); while
 *   one check of a document waits or runs, further changes make one more
 *   check after it, of the latest text. Checks wait in the server's own
 *   queue (task-queue.ts) for the engine, never more at once than its
 *   workers, and one the engine refuses for being busy is tried again. A
 *   check's result is published only if the document has not changed since
 *   (with the version it is for).
 * - Diagnostics come from a check without fixes: a fix costs trial parses,
 *   and most problems are never fixed from the editor.
 * - Code actions: the quick fixes of the problems on the requested lines
 *   (safe ones preferred), found then, for those lines only (the engine
 *   keeps its parse of the text it just checked); and `source.fixAll`, the
 *   engine's fix() of the whole document with its safe fixes, made when
 *   that kind is asked for (or offered beside a safe quick fix). A client
 *   that resolves code actions gets the edit at resolve.
 * - Dialect: `rst2.dialect` of the workspace configuration, else the
 *   initializationOptions' `dialect`, else the command's --dialect; else,
 *   for a file on disk, its project's config, then `sphinx` when a Sphinx
 *   conf.py is beside or above it; else docutils.
 * - Project: a file on disk is checked with its project's config (rules,
 *   declared names) and its conf.py's names, as `rst2 check` checks it.
 *
 * The engine starts at initialize (its first check waits for it) and stops at
 * shutdown; the library ends the process at exit. Messages are read by
 * message-reader.ts: on a stream that cannot be read as messages the server
 * answers a parse error and exits with status 1, as it does (status 0 after a
 * shutdown) when its input ends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

import {
  CodeActionKind,
  CodeActionTriggerKind,
  createConnection,
  DidChangeConfigurationNotification,
  DiagnosticSeverity,
  ErrorCodes,
  MessageType,
  ProposedFeatures,
  ShowMessageNotification,
  StreamMessageWriter,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type CodeActionParams,
  type Connection,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
  type ResponseMessage,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

import { DEFAULT_DIALECT, DIALECTS, type Dialect } from '../dialects.js';
import type { CheckItem, ConfResult, FixResult } from '../engines/python/contract.js';
import type { ProjectChoice } from '../engines/python/engine.js';
import { fileChoice, type FileChoice } from '../project/file-choice.js';
import { DEFAULT_RULES } from '../rules.js';
import { ProjectSettings, type FileSettings } from '../project/settings.js';
import { findSphinxConf, SphinxConfs } from '../project/sphinx-conf.js';
import { Code, isServiceError } from '../errors.js';
import { errorFields, type Logger } from '../log.js';
import { paths, projectRoot } from '../paths.js';
import { quickFix, replacement, sharesLine, SOURCE, toDiagnostic, workspaceEdit } from './diagnostics.js';
import { LSP_LIMITS } from '../config.js';
import { FramedMessageReader } from './message-reader.js';
import { CheckCoordinates } from './positions.js';
import { TaskQueue } from './task-queue.js';

/** What the server needs of an engine: PythonEngine's start, close, check and fix. */
export interface CheckEngine {
  start(): Promise<void>;
  close(): Promise<void>;
  /** `fixLines` [first, last]: fixes only for the problems on those lines, [] for none (PythonEngine.check). */
  check(source: string, dialect: Dialect, project?: ProjectChoice, fixLines?: readonly number[]): Promise<CheckItem[]>;
  fix(source: string, dialect: Dialect, unsafe: boolean, project?: ProjectChoice): Promise<FixResult>;
  /** A Sphinx conf.py read with ast, never run (PythonEngine.readConf); without it, conf.py files are not read. */
  readConf?(source: string): Promise<ConfResult>;
}

export interface LanguageServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Makes the engine; called at initialize. */
  engine: () => CheckEngine;
  log: Logger;
  /** The dialect when neither the configuration nor the initializationOptions name one. Default docutils. */
  defaultDialect?: Dialect;
  /** The pause after a change before its check. Default 0: the next turn of the event loop. */
  debounceMs?: number;
  /** The engine's workers: how many of its jobs (checks, fixes) the server runs at once. Default 1. */
  workers?: number;
  /**
   * Ends the process: status 0 when the input ends after a shutdown, else 1,
   * with the reason when the input could not be read as messages. (The
   * library itself ends it at the exit notification.)
   */
  exit: (status: number, reason?: string) => void;
}

// A pause delays every diagnostic (10 ms was a tenth of bench:lsp's latency)
// and saves no check: an editing action is one didChange, notifications read
// together are taken together (the check starts on the event loop's next
// turn), and while a check runs, changes make one check after it.
const DEFAULT_DEBOUNCE_MS = 0;
const FIX_ALL_TITLE = 'Fix all safe problems (rst2)';
const NO_FIXES: readonly number[] = [];

/** A check of one version of a document, in that version's coordinates. */
interface Checked {
  version: number;
  document: TextDocument;
  dialect: Dialect;
  /** The project's choices the check was made with: its fixes are made with them too. */
  project: ProjectChoice;
  items: CheckItem[];
  diagnostics: Diagnostic[];
  at: CheckCoordinates;
}

interface DocumentState {
  timer?: NodeJS.Timeout;
  /** The check waiting in the queue or running. */
  running?: Promise<void>;
  /** Moves the waiting check to the front of the queue. */
  hurry?: () => void;
  /** The document changed after its check read it: check it again after. */
  again: boolean;
  checked?: Checked;
  fixAll?: { version: number; dialect: Dialect; result: Promise<FixResult> };
  /** The problems of some lines with their fixes, for the quick fixes of the checked version. */
  fixes?: { version: number; lines: string; result: Promise<CheckItem[]> };
}

/** What a fix-all action carries to codeAction/resolve. */
interface FixAllData {
  uri: string;
  version: number;
}

function isFixAllData(value: unknown): value is FixAllData {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as Record<string, unknown>;
  return typeof data.uri === 'string' && typeof data.version === 'number';
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function serviceVersion(): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * Whether a client that asked only for `only` kinds wants actions of `kind`
 * (kinds are hierarchical: source covers source.fixAll). Neovim 0.7's help
 * shows `only` as one string, and clients send it so: one kind, then.
 */
function wanted(kind: string, only: unknown): boolean {
  if (only === undefined || only === null) return true;
  const kinds = typeof only === 'string' ? [only] : Array.isArray(only) ? only.filter((o): o is string => typeof o === 'string') : [];
  return kinds.some((o) => kind === o || kind.startsWith(`${o}.`));
}

/** The path of a file: URI this machine can open; undefined for any other (untitled:, a remote host's file://host/…). */
function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/**
 * Where a rule is explained: its section of the manual's rules page (its
 * anchor is its code). `docsUrl` (initializationOptions) is the manual of
 * an rst2 service, such as https://rst2.example.org/docs/; without one, the
 * page's source beside this server, which every install has.
 */
function rulePageIn(docsUrl: unknown): (rule: string) => string {
  if (typeof docsUrl === 'string' && /^https?:\/\//.test(docsUrl)) {
    const base = new URL('rules.html', docsUrl.endsWith('/') ? docsUrl : `${docsUrl}/`).href;
    return (rule) => `${base}#${rule}`;
  }
  const file = pathToFileURL(path.join(paths.docs, 'rules.rst')).href;
  return (rule) => `${file}#${rule}`;
}

export class LanguageServer {
  private readonly connection: Connection;
  private readonly documents = new TextDocuments(TextDocument);
  private readonly states = new Map<string, DocumentState>();
  /** The configured dialect of each document, asked of the client once per configuration change. */
  private readonly configured = new Map<string, Promise<Dialect | undefined>>();
  private readonly debounceMs: number;
  private readonly queue: TaskQueue;
  private readonly log: Logger;
  private engine: CheckEngine | undefined;
  private ready: Promise<void> = Promise.reject(new Error('the server is not initialized'));
  private closing = false;
  private shutDown = false;
  /** The input broke: the server is on its way out, with its reason. */
  private exiting = false;
  /** The dialect of initializationOptions, else of --dialect: an editor's choice, over the project's. */
  private initialDialect: Dialect | undefined;
  /** Each Sphinx conf.py, read once (again after a configuration change). */
  private confs: SphinxConfs | undefined;
  /** rst2 settings pushed by didChangeConfiguration, for a client that cannot be asked. */
  private pushedDialect: Dialect | undefined;
  private readonly warned = new Set<string>();
  /** The link to a rule's section of the manual (a diagnostic's codeDescription). */
  private rulePage: (rule: string) => string = rulePageIn(undefined);
  private client = { configuration: false, dynamicConfiguration: false, documentChanges: false, resolveEdit: false };

  constructor(private readonly options: LanguageServerOptions) {
    this.log = options.log;
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.queue = new TaskQueue(options.workers ?? 1);
    this.ready.catch(() => {});
    const reader = new FramedMessageReader(options.input, LSP_LIMITS);
    const writer = new StreamMessageWriter(options.output);
    reader.onBroken((reason) => void this.unreadable(writer, reason));
    reader.onClose(() => {
      if (!this.exiting) options.exit(this.shutDown ? 0 : 1, reader.partial ? 'the input ended in the middle of a message' : undefined);
    });
    this.connection = createConnection(ProposedFeatures.all, reader, writer);
    const c = this.connection;
    c.onInitialize((params) => this.initialize(params));
    c.onInitialized(() => {
      if (this.client.configuration && this.client.dynamicConfiguration) {
        c.client.register(DidChangeConfigurationNotification.type, { section: 'rst2' }).catch((err: unknown) => this.log.warn('cannot register for configuration changes', errorFields(err)));
      }
    });
    c.onDidChangeConfiguration((change) => {
      this.pushedDialect = this.dialectSetting(field(field(change.settings, 'rst2'), 'dialect'));
      this.configured.clear();
      this.confs = this.sphinxConfs();
      // Code actions wait for the checks in the new dialect.
      for (const state of this.states.values()) {
        state.checked = undefined;
        state.fixAll = undefined;
        state.fixes = undefined;
      }
      for (const document of this.documents.all()) this.schedule(document.uri);
    });
    c.onCodeAction((params) => this.codeActions(params));
    c.onCodeActionResolve((action) => this.resolve(action));
    c.onShutdown(() => this.shutdown());
    this.documents.onDidChangeContent(({ document }) => this.schedule(document.uri));
    this.documents.onDidClose(({ document }) => this.forget(document.uri));
    this.documents.listen(c);
  }

  listen(): void {
    this.connection.listen();
  }

  private initialize(params: InitializeParams): InitializeResult {
    const caps = params.capabilities;
    this.client = {
      configuration: caps.workspace?.configuration === true,
      dynamicConfiguration: caps.workspace?.didChangeConfiguration?.dynamicRegistration === true,
      documentChanges: caps.workspace?.workspaceEdit?.documentChanges === true,
      resolveEdit: caps.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') === true,
    };
    const initializationOptions: unknown = params.initializationOptions;
    this.initialDialect = this.dialectSetting(field(initializationOptions, 'dialect')) ?? this.options.defaultDialect;
    this.rulePage = rulePageIn(field(initializationOptions, 'docsUrl'));
    const engine = this.options.engine();
    this.engine = engine;
    this.ready = engine.start();
    this.ready.catch((err: unknown) => this.log.error('cannot start the engine', errorFields(err)));
    const version = serviceVersion();
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.SourceFixAll], resolveProvider: true },
      },
      serverInfo: version === undefined ? { name: 'rst2' } : { name: 'rst2', version },
    };
  }

  /** A dialect setting's value; an unknown one is reported once and ignored. */
  private dialectSetting(value: unknown): Dialect | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    const known: readonly unknown[] = DIALECTS;
    if (known.includes(value)) return value as Dialect;
    const shown = JSON.stringify(value) ?? String(value);
    if (!this.warned.has(shown)) {
      this.warned.add(shown);
      this.log.warn('unknown dialect setting ignored', { dialect: shown, known: DIALECTS });
      // A notification: showWarningMessage would be a request, whose answer nobody waits for.
      void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `rst2: unknown dialect ${shown}; choose one of ${DIALECTS.join(', ')}.` });
    }
    return undefined;
  }

  /** A dialect the editor chose for the document (its configuration, initializationOptions, --dialect), if any. */
  private async editorDialect(uri: string): Promise<Dialect | undefined> {
    if (this.client.configuration) {
      let setting = this.configured.get(uri);
      if (!setting) {
        setting = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'rst2' }).then(
          (value: unknown) => this.dialectSetting(field(value, 'dialect')),
          () => undefined,
        );
        this.configured.set(uri, setting);
      }
      const dialect = await setting;
      if (dialect) return dialect;
    } else if (this.pushedDialect) {
      return this.pushedDialect;
    }
    return this.initialDialect;
  }

  /**
   * The dialect and project choices for a document: an editor's dialect
   * first; then, for a file on disk, its project's config (the closest
   * rst2.toml, .rst2.toml or pyproject.toml [tool.rst2] from its folder
   * upward, read again for each check, so an edit of it counts at once) and
   * its Sphinx conf.py, read as the command line reads them
   * (src/project/). A config that cannot be read is shown once and left
   * out, and the document is checked without it.
   */
  private async choiceFor(uri: string): Promise<FileChoice> {
    const dialect = await this.editorDialect(uri);
    const alone: FileChoice = { dialect: dialect ?? DEFAULT_DIALECT, project: { rules: [...DEFAULT_RULES] } };
    const file = filePathOf(uri);
    if (file === undefined) return alone;
    let settings: FileSettings;
    let confPy: string | undefined;
    try {
      settings = new ProjectSettings().settingsFor(file);
      confPy = findSphinxConf(path.dirname(file), settings.config?.root);
    } catch (err) {
      // A broken config is shown; a path the file system refuses (a URI
      // below a file, a folder it may not read) just has no project.
      if (isServiceError(err) && err.code === Code.config_invalid) this.warnOnce(`rst2: ${err.message} (checked without the project's configuration)`);
      return alone;
    }
    this.confs ??= this.sphinxConfs();
    const sphinx = confPy === undefined || this.confs === undefined ? undefined : await this.confs.names(confPy);
    try {
      return fileChoice(settings, sphinx, dialect);
    } catch (err) {
      // A rule the config names that no rule matches: shown, and the rules left at their defaults.
      if (!isServiceError(err) || err.code !== Code.unknown_rule) throw err;
      this.warnOnce(`rst2: ${settings.config?.file ?? 'the configuration'}: ${err.message}`);
      return fileChoice({ ...settings, ruleLayers: [] }, sphinx, dialect);
    }
  }

  private sphinxConfs(): SphinxConfs | undefined {
    const engine = this.engine;
    if (engine?.readConf === undefined) return undefined;
    const read = engine.readConf.bind(engine);
    return new SphinxConfs(read, (file, line, message) => this.warnOnce(`rst2: ${file}${line === null ? '' : `:${line}`}: ${message}`));
  }

  /** A message for the user, once per text: logged, and shown as a notification (a request would wait for an answer nobody gives). */
  private warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.log.warn(message);
    void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
  }

  private state(uri: string): DocumentState {
    let state = this.states.get(uri);
    if (!state) {
      state = { again: false };
      this.states.set(uri, state);
    }
    return state;
  }

  private schedule(uri: string): void {
    if (this.closing || !this.documents.get(uri)) return;
    const state = this.state(uri);
    if (state.running) {
      state.again = true;
      return;
    }
    clearTimeout(state.timer);
    state.timer = setTimeout(() => void this.run(uri), this.debounceMs);
  }

  /**
   * Queues a check of the document (first in line when `urgent`); while one
   * waits or runs, that check is the answer (hurried when `urgent`).
   * Resolves when done.
   */
  private run(uri: string, urgent = false): Promise<void> {
    const state = this.states.get(uri);
    if (!state) return Promise.resolve();
    clearTimeout(state.timer);
    state.timer = undefined;
    if (state.running) {
      if (urgent) state.hurry?.();
      return state.running;
    }
    const queued = this.queue.add(() => {
      // The check reads the text now: changes made while it waited are in it.
      state.again = false;
      state.hurry = undefined;
      return this.checkOnce(uri);
    }, urgent);
    state.hurry = queued.hurry;
    state.running = queued.result
      .catch((err: unknown) => this.log.warn('cannot publish diagnostics', { uri, ...errorFields(err) }))
      .finally(() => {
        state.running = undefined;
        state.hurry = undefined;
        if (state.again) {
          state.again = false;
          this.schedule(uri);
        }
      });
    return state.running;
  }

  private async checkOnce(uri: string): Promise<void> {
    const live = this.documents.get(uri);
    const engine = this.engine;
    if (!live || !engine || this.closing) return;
    // TextDocuments updates its documents in place: the check works on a copy.
    const document = TextDocument.create(uri, live.languageId, live.version, live.getText());
    let diagnostics: Diagnostic[];
    let checked: Checked | undefined;
    try {
      await this.ready;
      const { dialect, project } = await this.choiceFor(uri);
      const began = performance.now();
      const items = await this.checkRetrying(engine, document, dialect, project);
      if (!items) return;
      this.log.debug('checked', { uri, version: document.version, dialect, problems: items.length, ms: Number((performance.now() - began).toFixed(1)) });
      const at = new CheckCoordinates(document);
      diagnostics = items.map((item) => toDiagnostic(item, at, this.rulePage));
      checked = { version: document.version, document, dialect, project, items, diagnostics, at };
    } catch (err) {
      if (this.closing) return;
      this.log.warn('check failed', { uri, ...errorFields(err) });
      const message = err instanceof Error ? err.message : String(err);
      diagnostics = [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: DiagnosticSeverity.Error,
          source: SOURCE,
          message: `rst2 could not check this document: ${message}`,
        },
      ];
    }
    const state = this.states.get(uri);
    if (this.closing || !state) return;
    if (checked) state.checked = checked;
    if (this.documents.get(uri)?.version !== document.version) return;
    await this.connection.sendDiagnostics({ uri, version: document.version, diagnostics });
  }

  /**
   * The engine's check of the document, tried again while the engine refuses
   * it for being busy (its pool shared with fixes, or a worker being
   * replaced): that is no answer about the document. Undefined when the
   * document changed or closed meanwhile, or the server is stopping: there is
   * nothing to publish then.
   */
  private async checkRetrying(engine: CheckEngine, document: TextDocument, dialect: Dialect, project: ProjectChoice): Promise<CheckItem[] | undefined> {
    const state = this.states.get(document.uri);
    for (let wait: number = LSP_LIMITS.retryFirstMs; ; wait = Math.min(wait * 2, LSP_LIMITS.retryMaxMs)) {
      try {
        // Diagnostics need no fixes: those are found when code actions are asked for, for their lines only.
        return await engine.check(document.getText(), dialect, project, NO_FIXES);
      } catch (err) {
        if (!isServiceError(err) || err.code !== Code.overloaded) throw err;
        this.log.debug('check refused by a busy engine; trying again', { uri: document.uri, version: document.version, waitMs: wait });
      }
      await delay(wait);
      if (this.closing || this.states.get(document.uri) !== state || this.documents.get(document.uri)?.version !== document.version) return undefined;
    }
  }

  /** The check of the document's current text, waiting for (or starting) it first in line; undefined while the text keeps changing or once closed. */
  private async current(uri: string): Promise<Checked | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const live = this.documents.get(uri);
      const state = this.states.get(uri);
      if (!live || !state || this.closing) return undefined;
      if (state.checked?.version === live.version) return state.checked;
      await this.run(uri, true);
    }
    return undefined;
  }

  private async codeActions(params: CodeActionParams): Promise<CodeAction[]> {
    const uri = params.textDocument.uri;
    const only = params.context.only;
    const quickFixes = wanted(CodeActionKind.QuickFix, only);
    const fixAll = wanted(CodeActionKind.SourceFixAll, only);
    if (!quickFixes && !fixAll) return [];
    const checked = await this.current(uri);
    if (!checked) return [];
    const target = { uri, version: checked.version };
    const actions: CodeAction[] = [];
    let safeQuickFix = false;
    if (quickFixes) {
      const onRange = checked.items.flatMap((item, i) => (sharesLine(checked.diagnostics[i]!.range, params.range) ? [{ item, diagnostic: checked.diagnostics[i]! }] : []));
      const lines = onRange.flatMap(({ item }) => (item.line === null ? [] : [item.line]));
      const fixed = lines.length > 0 ? await this.fixesOf(checked, Math.min(...lines), Math.max(...lines)) : [];
      for (const { item, diagnostic } of onRange) {
        const same = fixed.find((f) => f.line === item.line && f.column === item.column && f.rule === item.rule && f.message === item.message);
        const action = same ? quickFix(target, same, diagnostic, checked.at, this.client.documentChanges) : null;
        if (action) actions.push(action);
        if (same?.fix?.applicability === 'safe') safeQuickFix = true;
      }
    }
    // Fixing all is computed when someone asks (by kind, as a source action
    // menu or a save does, or by invoking code actions), or offered beside a
    // safe quick fix: the light bulb's automatic request, made each time the
    // cursor moves, does not make the engine fix the whole document.
    const askedFor = (only !== undefined && only !== null) || params.context.triggerKind !== CodeActionTriggerKind.Automatic;
    const state = this.states.get(uri);
    const known = state?.fixAll?.version === checked.version && state.fixAll.dialect === checked.dialect;
    if (fixAll && checked.items.length > 0 && (askedFor || safeQuickFix || known)) {
      const action = await this.fixAllAction(checked);
      if (action) actions.push(this.client.resolveEdit ? { title: action.title, kind: action.kind, data: target satisfies FixAllData } : action);
    }
    return actions;
  }

  /** The checked version's problems on lines first to last, with their fixes; the engine reuses its parse of that text. */
  private async fixesOf(checked: Checked, first: number, last: number): Promise<CheckItem[]> {
    const state = this.states.get(checked.document.uri);
    const engine = this.engine;
    if (!state || !engine) return [];
    const lines = `${first}-${last}`;
    if (state.fixes?.version !== checked.version || state.fixes.lines !== lines) {
      const text = checked.document.getText();
      // Someone waits for it: before the checks in the queue.
      const result = this.queue.add(() => engine.check(text, checked.dialect, checked.project, [first, last]), true).result;
      state.fixes = { version: checked.version, lines, result };
    }
    try {
      return await state.fixes.result;
    } catch (err) {
      this.log.warn('fixes failed', { uri: checked.document.uri, ...errorFields(err) });
      state.fixes = undefined;
      return [];
    }
  }

  private async resolve(action: CodeAction): Promise<CodeAction> {
    const data: unknown = action.data;
    if (action.kind !== CodeActionKind.SourceFixAll || !isFixAllData(data)) return action;
    const checked = await this.current(data.uri);
    if (!checked || checked.version !== data.version) return action;
    const resolved = await this.fixAllAction(checked);
    return resolved ? { ...action, edit: resolved.edit } : action;
  }

  /** Every safe fix of the checked text, by the engine's fix() (until nothing more changes), as one edit; null when it changes nothing. */
  private async fixAllAction(checked: Checked): Promise<CodeAction | null> {
    const state = this.states.get(checked.document.uri);
    if (!state || !this.engine) return null;
    const text = checked.document.getText();
    if (state.fixAll?.version !== checked.version || state.fixAll.dialect !== checked.dialect) {
      const engine = this.engine;
      // Someone waits for it: before the checks in the queue.
      const result = this.queue.add(() => engine.fix(text, checked.dialect, false, checked.project), true).result;
      state.fixAll = { version: checked.version, dialect: checked.dialect, result };
    }
    let fixed: FixResult;
    try {
      fixed = await state.fixAll.result;
    } catch (err) {
      this.log.warn('fix failed', { uri: checked.document.uri, ...errorFields(err) });
      state.fixAll = undefined;
      return null;
    }
    if (fixed.text === text || this.documents.get(checked.document.uri)?.version !== checked.version) return null;
    const edit = replacement(checked.document, text, fixed.text);
    return {
      title: FIX_ALL_TITLE,
      kind: CodeActionKind.SourceFixAll,
      edit: workspaceEdit({ uri: checked.document.uri, version: checked.version }, [edit], this.client.documentChanges),
    };
  }

  private forget(uri: string): void {
    const state = this.states.get(uri);
    if (state) clearTimeout(state.timer);
    this.states.delete(uri);
    this.configured.delete(uri);
    if (!this.closing) this.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => {});
  }

  /**
   * The input cannot be read as messages any more: a parse error answer
   * (JSON-RPC's, with no id, since no request could be read) that says why,
   * then the end, with the reason on standard error.
   */
  private async unreadable(writer: StreamMessageWriter, reason: string): Promise<void> {
    this.closing = true;
    this.exiting = true;
    const answer: ResponseMessage = { jsonrpc: '2.0', id: null, error: { code: ErrorCodes.ParseError, message: `rst2 lsp cannot read the messages any more, and exits: ${reason}` } };
    const flushed = new AbortController();
    await Promise.race([writer.write(answer).catch(() => {}), delay(LSP_LIMITS.exitFlushMs, undefined, { signal: flushed.signal }).catch(() => {})]);
    flushed.abort();
    this.options.exit(1, `cannot read the client's messages: ${reason}`);
  }

  private async shutdown(): Promise<void> {
    this.closing = true;
    this.shutDown = true;
    for (const state of this.states.values()) clearTimeout(state.timer);
    if (!this.engine) return;
    await this.ready.catch(() => {});
    await this.engine.close();
  }
}
