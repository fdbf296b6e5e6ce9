/**
 * A unified diff of two texts, as `diff -u` prints it: `---` and `+++` with
 * the names, `@@ -l,n +l,n @@` hunks with three lines of context, and
 * `\ No newline at end of file` after a last line without one, so `patch`
 * and `git apply` give back the new text byte for byte. Lines are compared
 * with their terminator (a `\r` stays part of its line), by Myers' O(ND)
 * algorithm over what lies between the common head and tail.
 */

type Op = { kind: ' ' | '-' | '+'; line: string };

/** The lines of a text, each with its `\n` (the last may have none). */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** A shortest edit script from a to b: equal lines, deletions, insertions. */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [...a.slice(0, head).map((line): Op => ({ kind: ' ', line })), ...middle, ...a.slice(a.length - tail).map((line): Op => ({ kind: ' ', line }))];
}

function myers(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v[-d..d] after step d, for the walk back.
  const trace: Int32Array[] = [];
  let steps = -1;
  for (let d = 0; d <= max && steps < 0; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) steps = d;
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = steps; d > 0; d--) {
    const prev = trace[d - 1]!;
    const at = (k: number): number => prev[k + d - 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: a[--x]! });
      y--;
    }
    if (x === prevX) ops.push({ kind: '+', line: b[--y]! });
    else ops.push({ kind: '-', line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', line: a[--x]! });
    y--;
  }
  ops.reverse();
  // As diff prints a change: its deletions, then its insertions.
  const ordered: Op[] = [];
  for (let i = 0; i < ops.length; ) {
    if (ops[i]!.kind === ' ') {
      ordered.push(ops[i++]!);
      continue;
    }
    let j = i;
    while (j < ops.length && ops[j]!.kind !== ' ') j++;
    const change = ops.slice(i, j);
    ordered.push(...change.filter((o) => o.kind === '-'), ...change.filter((o) => o.kind === '+'));
    i = j;
  }
  return ordered;
}

function range(start: number, count: number): string {
  // An empty range names the line before it, as diff does.
  const first = count === 0 ? start - 1 : start;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/** The unified diff from `before` to `after` (empty when they are equal). */
export function unifiedDiff(before: string, after: string, beforeName: string, afterName: string, context = 3): string {
  if (before === after) return '';
  const ops = editScript(splitLines(before), splitLines(after));
  // The line number (1-based) in each text at which op i stands.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const op of ops) {
    oldAt.push(oldLine);
    newAt.push(newLine);
    if (op.kind !== '+') oldLine++;
    if (op.kind !== '-') newLine++;
  }
  const changes = ops.flatMap((op, i) => (op.kind === ' ' ? [] : [i]));
  const out: string[] = [`--- ${beforeName}\n`, `+++ ${afterName}\n`];
  for (let c = 0; c < changes.length; ) {
    const start = Math.max(0, changes[c]! - context);
    let last = changes[c]!;
    // Changes whose contexts touch share a hunk.
    while (c + 1 < changes.length && changes[c + 1]! - last <= 2 * context + 1) last = changes[++c]!;
    c++;
    const end = Math.min(ops.length, last + 1 + context);
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((o) => o.kind !== '+').length;
    const newCount = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${range(oldAt[start]!, oldCount)} +${range(newAt[start]!, newCount)} @@\n`);
    for (const op of hunk) {
      out.push(op.kind + op.line);
      if (!op.line.endsWith('\n')) out.push('\n\\ No newline at end of file\n');
    }
  }
  return out.join('');
}
