/**
 * What a rendering is asked with and answered as, shared by the pipeline
 * (renderer.ts), its PDF part (pdf/pipeline.ts) and the operation table
 * (http/operations.ts): the operations, their media types, the options,
 * and the file name a PDF is served under.
 */
import type { ImageProblem } from './images/problems.js';

export type RenderOperation = 'html' | 'pdf' | 'check' | 'fix';

/** Option values by name (the API's parameter names), already checked against the catalogue. */
export type RenderOptions = Readonly<Record<string, string>>;

/** The media type of each rendering. */
export const RENDERED_TYPE = {
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  check: 'application/json; charset=utf-8',
  // What the engine answers and the cache keeps; the HTTP edge serves the fixed text from it (format=text).
  fix: 'application/json; charset=utf-8',
} as const satisfies Record<RenderOperation, string>;

/** The media type of `html` with `format=parts`. */
export const PARTS_TYPE = 'application/json; charset=utf-8';

/** The names of docutils' publish_parts() that `format=parts` serves (python/rst2/render.py PARTS). */
export const HTML_PART_NAMES = ['title', 'subtitle', 'docinfo', 'body', 'fragment', 'html_body', 'stylesheet', 'meta'] as const;

/** Told of each image that became a placeholder, as the rendering is made (not on a cache hit). */
export type ProblemReport = (problem: ImageProblem) => void;

/**
 * The options of check and fix that carry lists (the rules chosen, the names
 * a project declares), newline-joined: a name never holds a newline. Each is
 * present only when given, so a request without them keeps its render key.
 */
export const LIST_OPTIONS = {
  rules: 'rules',
  roles: 'roles',
  directives: 'directives',
  literal_directives: 'literal-directives',
  substitutions: 'substitutions',
} as const;

export type ListOption = keyof typeof LIST_OPTIONS;

/** The render option of check's and fix's line length (line-too-long), present only when given. */
export const LINE_LENGTH_OPTION = 'line-length';

/** What check and fix pass the engine beyond the dialect: the lists and the line length given. */
export function projectOptions(options: RenderOptions): Partial<Record<ListOption, string[]>> & { line_length?: number } {
  const length = options[LINE_LENGTH_OPTION];
  return length === undefined ? listOptions(options) : { ...listOptions(options), line_length: Number(length) };
}

/** The list options given, as the engine takes them. */
export function listOptions(options: RenderOptions): Partial<Record<ListOption, string[]>> {
  const lists: Partial<Record<ListOption, string[]>> = {};
  for (const [key, name] of Object.entries(LIST_OPTIONS) as [ListOption, string][]) {
    const value = options[name];
    if (value !== undefined) lists[key] = value === '' ? [] : value.split('\n');
  }
  return lists;
}

/** A list as a render option's value. */
export function joinList(names: readonly string[]): string {
  return names.join('\n');
}

/** An option's value; the operation table gives every option its default before this point. */
export function option(options: RenderOptions, name: string): string {
  const value = options[name];
  if (value === undefined) throw new Error(`the option ${name} is missing`);
  return value;
}

export function fileName(title: string, extension: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^\w\s.-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80);
  return `${base || 'document'}.${extension}`;
}
