/**
 * The options a rendering takes, and the one check of a chosen value. The
 * HTTP operation table (src/http/operations.ts) lists which operation takes
 * which, the OpenAPI description is built from them, and the command line
 * checks its --style, --class and --format with the same choose().
 *
 * A new option is an entry in OPTIONS (its unknown_<name> code in
 * errors.ts), its key in the options of the operations that take it
 * (http/operations.ts), and its use in renderer.ts: the router, the
 * parameter check, the OpenAPI description and the render key follow.
 */
import { DEFAULT_DIALECT, DIALECTS } from './dialects.js';
import { Code, ServiceError, type ErrorCode } from './errors.js';
import type { Catalogue } from './styles.js';

export interface OptionSpec {
  /** The parameter's name in the API (and the renderer's name for its value). */
  name: string;
  /** For the OpenAPI description: what the option does. */
  description: string;
  /** The values allowed, from the running catalogue where the list is the server's. */
  values: (catalogue: Catalogue) => readonly string[];
  default: string;
  /** The error for a value outside `values`. */
  code: ErrorCode;
  /**
   * Added after the operation's first answers: the option is left out of the
   * render options (and so the render key and ETag) when it has its default,
   * so requests without it keep the keys they always had.
   */
  keyedWhenGiven?: true;
}

const YES_NO = ['yes', 'no'] as const;

/** What `html` answers: the page, its parts as JSON, or the bare body. */
export const HTML_FORMATS = ['page', 'parts', 'fragment'] as const;
export type HtmlFormat = (typeof HTML_FORMATS)[number];

/** Keyed by the name of the OpenAPI parameter component built from each. */
export const OPTIONS = {
  HtmlStyle: { name: 'style', description: 'The HTML style.', values: (c) => c.htmlStyles, default: 'default', code: Code.unknown_style },
  LatexStyle: { name: 'style', description: 'The LaTeX style.', values: (c) => c.latexStyles, default: 'default', code: Code.unknown_style },
  LatexClass: { name: 'class', description: 'The LaTeX document class.', values: (c) => c.latexClasses, default: 'article', code: Code.unknown_class },
  UseLatexToc: {
    name: 'use-latex-toc',
    description: "`yes` prints LaTeX's `\\tableofcontents` after the title.",
    values: () => YES_NO,
    default: 'no',
    code: Code.unknown_use_latex_toc,
  },
  Tagged: {
    name: 'tagged',
    description:
      '`yes`: a tagged PDF (PDF/UA-1): headings, lists, tables with their header rows, figures with their alt text, links and ' +
      'footnotes are marked in a structure tree, with the language and title a screen reader needs. Typeset by pdfTeX, as untagged, ' +
      "unless a shaped script needs LuaHBTeX. With `check`: report images without alt text (rule `image-without-alt`).",
    values: () => YES_NO,
    default: 'no',
    code: Code.unknown_tagged,
    keyedWhenGiven: true,
  },
  Unsafe: {
    name: 'unsafe',
    description: '`1` applies the suggested fixes too (a guess, such as the closest known name), not only the safe ones.',
    values: () => ['0', '1'],
    default: '0',
    code: Code.unknown_unsafe,
  },
  HtmlFormat: {
    name: 'format',
    description:
      "`page`: the complete HTML page. `parts`: JSON with docutils' `publish_parts()` names (`title`, `subtitle`, `docinfo`, `body`, " +
      '`fragment`, `html_body`, `stylesheet`, `meta`) and `messages`. `fragment`: the bare body (docutils\' `fragment`) as HTML.',
    values: () => HTML_FORMATS,
    default: 'page',
    code: Code.unknown_html_format,
    keyedWhenGiven: true,
  },
  FixFormat: {
    name: 'format',
    description: '`text`: the fixed document. `json`: the fixed text, the fixes applied and the problems left.',
    values: () => ['text', 'json'],
    default: 'text',
    code: Code.unknown_fix_format,
  },
  Dialect: {
    name: 'dialect',
    description:
      'What the document is written for. `docutils`: plain docutils. `sphinx`: Sphinx\'s standard roles and directives are known ' +
      '(references resolve within the document, autodoc and includes become placeholders). `pypi`: as PyPI renders a package ' +
      'description with readme_renderer: any warning makes PyPI refuse it (`check` lists every such problem, `html` and `pdf` ' +
      'answer `422 pypi_refused`), and the HTML keeps only what PyPI\'s allow-list lets through. `github`: as GitHub shows a ' +
      'README (github/markup\'s rest2html, then its allow-list); `check` names what GitHub shows differently (rules `github-*`).',
    values: () => DIALECTS,
    default: DEFAULT_DIALECT,
    code: Code.unknown_dialect,
  },
} as const satisfies Record<string, OptionSpec>;

/** The chosen value: the default when none (or an empty one) is given, an error naming the valid ones when unknown. */
export function choose(spec: OptionSpec, value: string | undefined, catalogue: Catalogue): string {
  if (value === undefined || value === '') return spec.default;
  const allowed = spec.values(catalogue);
  if (!allowed.includes(value)) {
    const shown = value.slice(0, 100);
    throw new ServiceError(spec.code, `Unknown ${spec.name} ${JSON.stringify(shown)}; choose one of ${allowed.join(', ')}.`, {
      details: { [spec.name]: shown, valid: allowed },
    });
  }
  return value;
}
