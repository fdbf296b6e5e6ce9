/**
 * `rst2 check --fix FILE…` and `rst2 check --diff FILE…`: each document with
 * the fixes of the `fix` operation applied (safe ones; suggested ones too
 * with --unsafe), written back in place (replace-file.ts) or shown as a
 * unified diff (unified-diff.ts). A file that needs no fix is not touched.
 * A BOM the file began with is kept; line endings are the engine's (it keeps
 * the document's own).
 *
 * Streams: with --fix, the problems left go to standard output as `check`
 * prints them; with --diff the diff does, and the problems that would be
 * left go to standard error, so the output is a patch and nothing else.
 * `--fix -` writes the fixed text to standard output (its problems to
 * standard error). Either way a summary line per file goes to standard
 * error: `doc.rst: 2 fixes applied, 1 problem left`.
 */
import type { CheckItem, FixResult } from '../engines/python/contract.js';
import { writeStdout, type Input } from './files.js';
import { textLines } from './formats/text.js';
import { replaceFile } from './replace-file.js';
import { unifiedDiff } from './unified-diff.js';

export type FixMode = 'fix' | 'diff';

const BOM = '\uFEFF';

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function summary(name: string, mode: FixMode, unsafe: boolean, result: FixResult): string {
  const fixes = count(result.fixes.length, 'fix', 'fixes');
  const problems = count(result.messages.length, 'problem', 'problems');
  const line = mode === 'fix' ? `${name}: ${fixes} applied, ${problems} left` : `${name}: ${fixes} to apply, ${problems} left after them`;
  const suggested = unsafe ? 0 : result.messages.filter((m: CheckItem) => m.fix?.applicability === 'suggested').length;
  return `${line}${suggested > 0 ? ` (${suggested} with a suggested fix: add --unsafe)` : ''}\n`;
}

/**
 * Writes (or diffs) each input's fixed text in turn, as its `fix` result
 * (`results`, in the inputs' order, made concurrently) comes; the exit
 * status: 0 when no problem is left in any.
 */
export async function fixFiles(inputs: readonly Input[], mode: FixMode, unsafe: boolean, results: readonly Promise<FixResult>[]): Promise<number> {
  let left = 0;
  for (const [i, input] of inputs.entries()) {
    const result = await results[i]!;
    const name = input.file === '-' ? '<stdin>' : input.file;
    const bom = input.bom ? BOM : '';
    const changed = result.text !== input.text;
    const problems = textLines(name, result.messages);
    if (mode === 'diff') {
      if (changed) await writeStdout(unifiedDiff(bom + input.text, bom + result.text, name, name));
      process.stderr.write(problems);
    } else if (input.file === '-') {
      await writeStdout(bom + result.text);
      process.stderr.write(problems);
    } else {
      if (changed) await replaceFile(input.file, Buffer.from(bom + result.text, 'utf8'), input.seen!);
      await writeStdout(problems);
    }
    process.stderr.write(summary(name, mode, unsafe, result));
    left += result.messages.length;
  }
  return left > 0 ? 1 : 0;
}
