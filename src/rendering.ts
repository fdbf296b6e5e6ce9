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

/** Told of each image that became a placeholder, as the rendering is made (not on a cache hit). */
export type ProblemReport = (problem: ImageProblem) => void;

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
