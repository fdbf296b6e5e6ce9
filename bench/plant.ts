/**
 * Planted mistakes for bench/fixes.ts: each takes a correct document and
 * makes one of the mistakes authors make, at a place a seeded generator
 * picks, or answers null when the document has no such place. The fixes'
 * job is to turn the result back into the document the author meant.
 */

/** A small seeded generator (mulberry32): the same seed plants the same mistakes. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Planter {
  name: string;
  /** The document with one mistake planted, or null when there is no place for it. */
  plant(text: string, random: () => number): string | null;
}

const ADORNMENT = /^([=\-~^"'`#*+:.])\1{3,}\s*$/;

function pick<T>(items: T[], random: () => number): T | null {
  return items.length ? items[Math.floor(random() * items.length)]! : null;
}

function lines(text: string): string[] {
  return text.split('\n');
}

/** Indexes i where test(lines, i) holds. */
function places(all: string[], test: (all: string[], i: number) => boolean): number[] {
  const found: number[] = [];
  for (let i = 0; i < all.length; i++) if (test(all, i)) found.push(i);
  return found;
}

const blank = (s: string | undefined) => s === undefined || s.trim() === '';
const indent = (s: string) => s.length - s.trimStart().length;

export const PLANTERS: Planter[] = [
  {
    name: 'shorten a title underline',
    plant(text, random) {
      const all = lines(text);
      // An underline-only title: text, then adornment at least as long, no overline.
      const i = pick(places(all, (a, i) => i > 0 && ADORNMENT.test(a[i]!) && !blank(a[i - 1]) && !ADORNMENT.test(a[i - 1]!) && (i < 2 || !ADORNMENT.test(a[i - 2]!)) && a[i - 1]!.trim().length >= 6 && a[i]!.trim().length >= a[i - 1]!.trimEnd().length), random);
      if (i === null) return null;
      all[i] = all[i]!.trim()[0]!.repeat(Math.max(4, all[i - 1]!.trimEnd().length - 1 - Math.floor(random() * 3)));
      return all.join('\n');
    },
  },
  {
    name: 'drop the blank line after a bullet list',
    plant(text, random) {
      const all = lines(text);
      const i = pick(places(all, (a, i) => i > 0 && blank(a[i]) && /^[*+-] \S/.test(a[i - 1]!) && a[i + 1] !== undefined && /^[A-Za-z]/.test(a[i + 1]!)), random);
      if (i === null) return null;
      all.splice(i, 1);
      return all.join('\n');
    },
  },
  {
    name: 'drop the blank line after explicit markup',
    plant(text, random) {
      const all = lines(text);
      const i = pick(places(all, (a, i) => i > 0 && blank(a[i]) && /^\.\. _[^:]+: \S+$/.test(a[i - 1]!) && a[i + 1] !== undefined && /^[A-Za-z]/.test(a[i + 1]!)), random);
      if (i === null) return null;
      all.splice(i, 1);
      return all.join('\n');
    },
  },
  {
    name: 'drop the blank line before an indented block',
    plant(text, random) {
      const all = lines(text);
      // A paragraph of two lines or more, then a blank, then an indented block (not a literal block after ::).
      const i = pick(places(all, (a, i) => i > 1 && blank(a[i]) && !blank(a[i - 1]) && !blank(a[i - 2]) && indent(a[i - 1]!) === 0 && indent(a[i - 2]!) === 0 && !a[i - 1]!.trimEnd().endsWith('::') && a[i + 1] !== undefined && indent(a[i + 1]!) > 0 && !blank(a[i + 1]) && !/^\s*(\.\.|[*+-] |\d+\.)/.test(a[i + 1]!) && !/^[*+-] |^\d+\. |^\.\. |^:/.test(a[i - 1]!) && !/^[*+-] |^\d+\. |^\.\. |^:/.test(a[i - 2]!)), random);
      if (i === null) return null;
      all.splice(i, 1);
      return all.join('\n');
    },
  },
  {
    name: 'break an emphasis with a space before its end',
    plant(text, random) {
      const all = lines(text);
      const found: Array<[number, number]> = [];
      all.forEach((line, i) => {
        for (const m of line.matchAll(/(?<=^|[\s(])\*([^*\s][^*]*[^*\s])\*(?=$|[\s.,;:!?)])/g)) found.push([i, m.index! + m[0].length - 1]);
      });
      const at = pick(found, random);
      if (!at) return null;
      const [i, end] = at;
      all[i] = `${all[i]!.slice(0, end)} ${all[i]!.slice(end)}`;
      return all.join('\n');
    },
  },
  {
    name: 'misspell a reference to a target',
    plant(text, random) {
      const all = lines(text);
      const found: Array<[number, number, string]> = [];
      all.forEach((line, i) => {
        if (/^\s*\.\./.test(line)) return;
        for (const m of line.matchAll(/(?<![\w`])([A-Za-z][\w-]{4,})_(?![\w_])/g)) found.push([i, m.index!, m[1]!]);
      });
      const at = pick(found, random);
      if (!at) return null;
      const [i, start, name] = at;
      const k = 1 + Math.floor(random() * (name.length - 2));
      const misspelt = name.slice(0, k) + name.slice(k + 1);
      all[i] = all[i]!.slice(0, start) + misspelt + all[i]!.slice(start + name.length);
      return all.join('\n');
    },
  },
  {
    name: 'misspell a directive',
    plant(text, random) {
      const all = lines(text);
      const i = pick(places(all, (a, i) => /^\s*\.\. (note|warning|code-block|code|image|figure|contents|admonition|tip|important)::/.test(a[i]!)), random);
      if (i === null) return null;
      all[i] = all[i]!.replace(/\.\. ([a-z-]+)::/, (_, name: string) => `.. ${name.slice(0, -1)}${name.slice(-1)}${name.slice(-1)}::`);
      return all.join('\n');
    },
  },
];
