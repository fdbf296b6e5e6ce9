/** What every output format of `rst2 check` is given, and what it is. */
import type { CheckItem } from '../../engines/python/contract.js';

/** One checked file: its name as shown (`<stdin>` for standard input), its text and its problems. */
export interface FileReport {
  file: string;
  text: string;
  items: CheckItem[];
}

export interface Format {
  /** Whether it shows fixes: when not, check computes none (they cost a trial parse each). */
  needsFixes: boolean;
  /** Printed for each file as soon as it and the files before it are checked (text, github). */
  each?: (report: FileReport) => string;
  /** Printed once, after every file (json, sarif, junit). */
  all?: (reports: readonly FileReport[]) => string;
}
