/**
 * The dialects a document can be written in (python/rst2/dialects): which
 * roles, directives and settings docutils uses for html, pdf and check.
 */
export const DIALECTS = ['docutils', 'sphinx', 'pypi'] as const;

export type Dialect = (typeof DIALECTS)[number];

/** Plain docutils: the behaviour from before dialects existed. */
export const DEFAULT_DIALECT: Dialect = 'docutils';

/**
 * The dialect as a render option: absent for the default, so the render key
 * (and ETag) of every request that does not choose a dialect stays what it was.
 */
export function dialectOption(dialect: string): { dialect?: string } {
  return dialect === DEFAULT_DIALECT ? {} : { dialect };
}
