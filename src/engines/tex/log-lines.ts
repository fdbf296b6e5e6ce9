/**
 * Picks what a client is shown of a failed TeX run: the log is long and
 * mostly noise (fonts, packages), the errors are a few lines each.
 */

/** The lines of a TeX log that say what went wrong: each `!` error with its context. */
export function relevantLogLines(log: string, max = 20): string {
  const lines = log.split('\n');
  const picked: string[] = [];
  for (let i = 0; i < lines.length && picked.length < max; i++) {
    if (lines[i]!.startsWith('!')) {
      for (let j = i; j < Math.min(lines.length, i + 6) && picked.length < max; j++) {
        picked.push(lines[j]!);
        if (j > i && /^l\.\d+/.test(lines[j]!)) break;
      }
    }
  }
  return picked.join('\n');
}
