/**
 * The junit format: JUnit XML as CI servers read test reports. One
 * testsuite per checked file; in it a testcase per problem (named by its
 * rule and line, failing with the message), or, for a file without
 * problems, one passing testcase named `rst2`, so that every file checked
 * shows in the report.
 */
import type { CheckItem } from '../../engines/python/contract.js';
import type { FileReport, Format } from './types.js';

// Characters XML 1.0 cannot carry at all, even escaped: a message quotes the document, which may hold them.
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(s: string): string {
  return s.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function attributes(values: Record<string, string | number>): string {
  // In an attribute a newline would be read back as a space: keep it as a character reference.
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlText(String(v)).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')}"`)
    .join('');
}

function testcase(r: FileReport, item: CheckItem): string {
  const line = item.line ?? 1;
  const column = item.column ?? 1;
  const name = `${item.rule} at ${line}:${column}`;
  const first = item.message.split(/\r?\n/, 1)[0]!;
  return (
    `    <testcase${attributes({ name, classname: r.file, file: r.file, line })}>\n` +
    `      <failure${attributes({ message: first, type: item.rule })}>${xmlText(`${r.file}:${line}:${column}: ${item.type}: ${item.message}`)}</failure>\n` +
    '    </testcase>\n'
  );
}

function suite(r: FileReport): string {
  const cases = r.items.length === 0 ? `    <testcase${attributes({ name: 'rst2', classname: r.file, file: r.file })}/>\n` : r.items.map((item) => testcase(r, item)).join('');
  const tests = Math.max(r.items.length, 1);
  return `  <testsuite${attributes({ name: r.file, tests, failures: r.items.length, errors: 0 })}>\n${cases}  </testsuite>\n`;
}

export const JUNIT: Format = {
  needsFixes: false,
  all: (reports: readonly FileReport[]) => {
    const tests = reports.reduce((n, r) => n + Math.max(r.items.length, 1), 0);
    const failures = reports.reduce((n, r) => n + r.items.length, 0);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attributes({ name: 'rst2', tests, failures, errors: 0 })}>\n${reports.map(suite).join('')}</testsuites>\n`;
  },
};
