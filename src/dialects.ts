/**
 * The dialects a document can be written in (python/rst2/dialects): which
 * roles, directives and settings docutils uses for html, pdf and check.
 */
export const DIALECTS = ['docutils', 'sphinx', 'pypi'] as const;

export type Dialect = (typeof DIALECTS)[number];

/** Plain docutils: the behaviour from before dialects existed. */
export const DEFAULT_DIALECT: Dialect = 'docutils';
