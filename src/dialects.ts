/**
 * The dialects a document can be written in (python/rst2/dialects): which
 * roles, directives and settings docutils uses for html, pdf and check.
 * The list is the worker contract's (python/rst2/worker.schema.json), which
 * Python reads too.
 */
import { DIALECT_VALUES, type Dialect } from './engines/python/contract.js';

export const DIALECTS = DIALECT_VALUES;

export type { Dialect };

/** Plain docutils: the behaviour from before dialects existed. */
export const DEFAULT_DIALECT: Dialect = 'docutils';

/** A value the option check (options.ts) let through; anything else reaching an engine is a bug. */
export function asDialect(value: string): Dialect {
  const known: readonly string[] = DIALECTS;
  if (!known.includes(value)) throw new Error(`unknown dialect ${JSON.stringify(value)}`);
  return value as Dialect;
}
