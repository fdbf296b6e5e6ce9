/**
 * The json format: one array of every problem of every file, in the order
 * the text format prints them, each the object `check` answers over HTTP
 * (message, type, line, column, context, rule, and fix where there is one)
 * with `file` added first.
 */
import type { FileReport, Format } from './types.js';

export const JSON_FORMAT: Format = {
  needsFixes: true,
  all: (reports: readonly FileReport[]) => `${JSON.stringify(reports.flatMap((r) => r.items.map((item) => ({ file: r.file, ...item }))), null, 2)}\n`,
};
