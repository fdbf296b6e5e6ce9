// Generated from python/rst2/worker.schema.json by `npm run contract` (src/engines/python/contract-gen.ts): do not edit.
// test/unit/contract.test.ts fails when this file is not what the schema generates.

/** What a job asks for: an HTML page, LaTeX for pdfTeX, the problems `check` reports, or the document with their fixes applied, or what a Sphinx conf.py gives check (read, never run). */
export const OPERATION_VALUES = ['html', 'latex', 'check', 'fix', 'conf'] as const;
export type Operation = (typeof OPERATION_VALUES)[number];

/** Which roles, directives and settings docutils uses (python/rst2/dialects; src/dialects.ts). */
export const DIALECT_VALUES = ['docutils', 'sphinx', 'pypi', 'github'] as const;
export type Dialect = (typeof DIALECT_VALUES)[number];

/** The codes of a failed job. Each but `internal` is a code of the error catalogue (src/errors.ts) for a fault of the document itself; `internal` is a bug in the renderer, answered render_failed and logged with its trace. */
export const FAILURE_CODE_VALUES = ['render_timeout', 'document_too_deep', 'document_too_large', 'output_too_large', 'docutils_failed', 'pypi_refused', 'internal'] as const;
export type FailureCode = (typeof FAILURE_CODE_VALUES)[number];

/** A script beyond Latin that a document's LaTeX typesets (python/rst2/scripts.py); placeholders: characters no shipped font has. */
export const SCRIPT_VALUES = ['cyrillic', 'greek', 'vietnamese', 'emoji', 'symbols', 'placeholders', 'arabic', 'hebrew', 'devanagari', 'bengali', 'tamil', 'thai', 'cjk-gbsn', 'cjk-bsmi', 'cjk-min', 'cjk-mj'] as const;
export type Script = (typeof SCRIPT_VALUES)[number];

/** Where the pool lays out files in Pyodide's in-memory filesystem, and where Python looks for them. */
export const PYODIDE_PATHS = {
  /** The python/ folder (the rst2 package), first on sys.path. */
  python: '/rst2/python',
  /** The styles/ folder: stylesheets and latex/classes.txt. */
  styles: '/rst2/styles',
  /** What the shipped fonts cover (scripts.json, written by the TeX build). */
  scripts_table: '/rst2/tex/scripts.json',
} as const;

export interface HtmlOptions {
  /** An HTML style of styles/html. Default: 'default'. */
  style?: string;
  /** Default: 'docutils'. */
  dialect?: Dialect;
  /** The URL a `uri` document came from: its relative links and images resolve against it. */
  base?: string;
  /** `page`: the complete page. `parts`: also docutils' publish_parts() names and the messages. `fragment`: `html` is the bare body. Default: 'page'. */
  format?: 'page' | 'parts' | 'fragment';
}

export interface LatexOptions {
  /** A LaTeX class of styles/latex/classes.txt. Default: 'article'. */
  class?: string;
  /** A LaTeX style of styles/latex. Default: 'default'. */
  style?: string;
  /** LaTeX's own table of contents. Default: false. */
  use_latex_toc?: boolean;
  /** Default: 'docutils'. */
  dialect?: Dialect;
  /** docutils' own layout, without a format preamble (to compare against). Default: false. */
  docutils_layout?: boolean;
  /** A tagged PDF (PDF/UA-1), by the engine its scripts choose (pdfTeX unless a shaped script needs LuaHBTeX). Default: false. */
  tagged?: boolean;
}

export interface CheckOptions {
  /** Default: 'docutils'. */
  dialect?: Dialect;
  /** The rule codes to report (python/rst2/rules.json); absent: every rule on by default. */
  rules?: string[];
  /** Roles the project defines elsewhere: never unknown. */
  roles?: string[];
  /** Directives the project defines elsewhere: any arguments and options, content parsed as reStructuredText. */
  directives?: string[];
  /** Declared directives whose content is literal text, not parsed. */
  literal_directives?: string[];
  /** Substitutions the project defines elsewhere: never undefined. */
  substitutions?: string[];
  /** Fixes only for the problems on lines first to last ([first, last], from 1); [] for none. Absent: every problem gets its fix where one is known. */
  fix_lines?: number[];
  /** The longest line line-too-long lets through, in characters (1 to 1000, checked where it is read); absent: 79. */
  line_length?: number;
  /** The PDF is to be tagged: report images without alt text (rule image-without-alt). Default: false. */
  tagged?: boolean;
}

export interface FixOptions {
  /** Default: 'docutils'. */
  dialect?: Dialect;
  /** Apply suggested fixes too, not only safe ones. Default: false. */
  unsafe?: boolean;
  /** The rule codes to report (python/rst2/rules.json); absent: every rule on by default. */
  rules?: string[];
  /** Roles the project defines elsewhere: never unknown. */
  roles?: string[];
  /** Directives the project defines elsewhere: any arguments and options, content parsed as reStructuredText. */
  directives?: string[];
  /** Declared directives whose content is literal text, not parsed. */
  literal_directives?: string[];
  /** Substitutions the project defines elsewhere: never undefined. */
  substitutions?: string[];
  /** The longest line line-too-long lets through, in characters (1 to 1000, checked where it is read); absent: 79. */
  line_length?: number;
}

/** conf takes no options. */
export interface ConfOptions {

}

/** One job, as the pool posts it to a worker; the worker hands Python op, source and the options as JSON. */
export type Job =
  | { op: 'html'; source: string; options: HtmlOptions }
  | { op: 'latex'; source: string; options: LatexOptions }
  | { op: 'check'; source: string; options: CheckOptions }
  | { op: 'fix'; source: string; options: FixOptions }
  | { op: 'conf'; source: string; options: ConfOptions };

export interface HtmlResult {
  /** A complete HTML5 page with its stylesheet embedded; with format `parts` or `fragment`, docutils' `fragment` part. */
  html: string;
  title: string;
  /** What the final safety pass (python/rst2/sanitize.py) took out of the page; normally empty. */
  removed: string[];
  parts?: HtmlParts;
  /** With format `parts`: the problems the page shows inside it, as check reports them (`removed` is logged, as for the page). */
  messages?: CheckItem[];
}

/** docutils' publish_parts() names (0.23, html5 writer), each through the safety pass (python/rst2/render.py PARTS). */
export interface HtmlParts {
  title: string;
  subtitle: string;
  docinfo: string;
  body: string;
  fragment: string;
  html_body: string;
  stylesheet: string;
  meta: string;
}

export interface LatexImage {
  uri: string;
  alt: string | null;
}

export interface LatexResult {
  latex: string;
  title: string;
  /** The TeX engine for `latex`: pdftex, or luahbtex (LuaLaTeX) when the text holds a script that needs shaping or right-to-left setting (python/rst2/scripts.py). */
  engine: 'pdftex' | 'luahbtex';
  /** The part of `latex` a format can hold (python/rst2/latex_format.py); null: typeset it plainly. */
  format_preamble: string | null;
  /** Characters no shipped font has, shown as boxed code points (python/rst2/scripts.py). */
  replaced_characters: number;
  /** The scripts beyond Latin the document uses. */
  scripts: Script[];
  /** The images in document order: image N of the LaTeX is entry N-1 (python/rst2/latex_images.py). */
  images: LatexImage[];
}

/** One problem `check` reports: a docutils system message of level warning (2) and above (python/rst2/messages.py); the editor page reads the same type. */
export interface CheckItem {
  message: string;
  type: 'warning' | 'error' | 'severe';
  line: number | null;
  /** The column the problem starts at: from 1, in Unicode code points (python/rst2/columns.py); null when line is. */
  column: number | null;
  context: string;
  /** The kebab-case code of the rule naming this problem (python/rst2/rules.py; docs/rules.rst lists them). A fix's own rule field names the fix, not the problem. */
  rule: string;
  fix?: Fix;
}

/** Replace the text from (line, column) up to, not including, (endLine, endColumn) with text: lines and columns from 1, columns counted in Unicode code points (python/rst2/fixes/edits.py). */
export interface Edit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  text: string;
}

/** A machine-applicable fix of one problem (python/rst2/fixes): safe when it cannot change what a correct part of the document means, suggested otherwise; rule names the rule that made it. */
export interface Fix {
  description: string;
  applicability: 'safe' | 'suggested';
  edits: Edit[];
  rule: string;
}

export interface CheckResult {
  messages: CheckItem[];
}

export interface FixResult {
  /** The document with the fixes applied. */
  text: string;
  /** The fixes applied, in the passes' order. */
  fixes: Fix[];
  /** The problems left, as check reports them. */
  messages: CheckItem[];
}

/** What a Sphinx conf.py gives check, read with Python's ast and never run (python/rst2/project/sphinx_conf.py). */
export interface ConfResult {
  extensions: string[];
  roles: string[];
  directives: string[];
  substitutions: string[];
  primary_domain: string | null;
  default_role: string | null;
  /** What could not be read without running it, once per name. */
  notes: ({ line: number | null; message: string })[];
}

/** The result of each operation, by its name (a map for both sides, never sent as such). */
export interface Results {
  html: HtmlResult;
  latex: LatexResult;
  check: CheckResult;
  fix: FixResult;
  conf: ConfResult;
}

export interface Success {
  ok: true;
  /** The operation's entry of Results. */
  result: unknown;
}

export interface Failure {
  ok: false;
  code: FailureCode;
  /** Safe to show the client (for internal: only logged). */
  message: string;
  /** Python's traceback, for internal only: logged, never shown. */
  trace: string | null;
}

/** What rst2.api.handle returns, as JSON: every failure is a value, never an exception. */
export type Reply =
  | Success
  | Failure;
