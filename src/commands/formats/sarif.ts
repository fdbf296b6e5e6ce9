/**
 * The sarif format: one SARIF 2.1.0 log (the OASIS standard code-scanning
 * tools such as GitHub's read) with one run. Its tool lists every rule of
 * the table (src/rules.ts) with its summary and a link to its section of
 * the manual; each result names its rule, its level (a docutils warning is
 * `warning`, an error or severe problem `error`), its file and region, and
 * the problem's fix as SARIF `fixes` (replacements of deleted regions).
 * Columns are in code points, which the run says (`columnKind`); regions
 * end before their end column, as check's edits do.
 */
import type { CheckItem } from '../../engines/python/contract.js';
import { RULES } from '../../rules.js';
import { spanOf } from './span.js';
import type { FileReport, Format } from './types.js';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const INDEX = new Map(RULES.map((r, i) => [r.code, i]));

export interface SarifTool {
  version: string;
  /** The link to a rule's section of the manual. */
  rulePage: (code: string) => string;
}

/** A path as a relative URI reference: separators as `/`, every segment percent-encoded. */
export function fileUri(file: string): string {
  return file.split(/[\\/]/).map(encodeURIComponent).join('/');
}

function result(r: FileReport, item: CheckItem): Record<string, unknown> {
  const uri = fileUri(r.file);
  const region: Record<string, number> = { startLine: item.line ?? 1, startColumn: item.column ?? 1 };
  const span = spanOf(item, r.text);
  if (span !== undefined) Object.assign(region, span);
  const out: Record<string, unknown> = {
    ruleId: item.rule,
    level: item.type === 'warning' ? 'warning' : 'error',
    message: { text: item.message },
    locations: [{ physicalLocation: { artifactLocation: { uri }, region } }],
  };
  const index = INDEX.get(item.rule);
  if (index !== undefined) out.ruleIndex = index;
  if (item.fix !== undefined) {
    out.fixes = [
      {
        description: { text: item.fix.description },
        artifactChanges: [
          {
            artifactLocation: { uri },
            replacements: item.fix.edits.map((e) => ({
              deletedRegion: { startLine: e.line, startColumn: e.column, endLine: e.endLine, endColumn: e.endColumn },
              insertedContent: { text: e.text },
            })),
          },
        ],
      },
    ];
  }
  return out;
}

export function sarifFormat(tool: SarifTool): Format {
  return {
    needsFixes: true,
    all: (reports: readonly FileReport[]) => {
      const log = {
        $schema: SCHEMA,
        version: '2.1.0',
        runs: [
          {
            tool: {
              driver: {
                name: 'rst2',
                version: tool.version,
                rules: RULES.map((rule) => ({
                  id: rule.code,
                  shortDescription: { text: rule.summary },
                  helpUri: tool.rulePage(rule.code),
                  defaultConfiguration: { enabled: rule.default },
                })),
              },
            },
            columnKind: 'unicodeCodePoints',
            results: reports.flatMap((r) => r.items.map((item) => result(r, item))),
          },
        ],
      };
      return `${JSON.stringify(log, null, 2)}\n`;
    },
  };
}
