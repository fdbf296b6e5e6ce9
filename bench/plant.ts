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

/**
 * A typo in a name, as fingers make them: a letter dropped, doubled, or
 * swapped with the next (inside the name: its first letter stays).
 */
function typo(name: string, random: () => number): string {
  const at = 1 + Math.floor(random() * Math.max(1, name.length - 1));
  const kind = Math.floor(random() * 3);
  if (kind === 0 && name.length > 2) return name.slice(0, at) + name.slice(at + 1);
  if (kind === 1 || at >= name.length - 1) return name.slice(0, at) + name[at - 1] + name.slice(at);
  return name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2);
}

interface Title {
  /** The title's text line and its underline (and overline: line - 1, when `over`). */
  line: number;
  over: boolean;
  /** docutils' style: the underline's character, and the overline's when there is one. */
  style: string;
}

/** The section titles of a document, in order: text at the margin, adorned below (and above), blank around. */
function titles(all: string[]): Title[] {
  const found: Title[] = [];
  for (let i = 1; i + 1 < all.length + 1; i++) {
    const under = all[i];
    const text = all[i - 1]!;
    if (under === undefined || !ADORNMENT.test(under) || blank(text) || ADORNMENT.test(text) || indent(text) > 0 || !blank(all[i + 1])) continue;
    const over = i >= 2 && ADORNMENT.test(all[i - 2]!) && all[i - 2]!.trim() === under.trim();
    if (!over && !blank(all[i - 2])) continue;
    if (over && !blank(all[i - 3])) continue;
    found.push({ line: i - 1, over, style: over ? `${under[0]}/${under[0]}` : under[0]! });
  }
  return found;
}

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
  {
    name: 'mismatch a title overline',
    plant(text, random) {
      const all = lines(text);
      // An overline as long as its underline; edited, it is one or two characters shorter or longer.
      const i = pick(places(all, (a, i) => ADORNMENT.test(a[i]!) && a[i + 2] !== undefined && a[i + 2]!.trimEnd() === a[i]!.trimEnd() && !blank(a[i + 1]) && !ADORNMENT.test(a[i + 1]!) && indent(a[i + 1]!) <= 1 && blank(a[i - 1])), random);
      if (i === null) return null;
      const length = all[i]!.trimEnd().length;
      const change = (1 + Math.floor(random() * 2)) * (random() < 0.5 ? -1 : 1);
      all[i] = all[i]![0]!.repeat(Math.max(1, length + change));
      return all.join('\n');
    },
  },
  {
    name: 'skip a title level',
    plant(text, random) {
      const all = lines(text);
      // A first subsection (one level under the title before it), underlined
      // with a style of a deeper level that the document already has.
      const found: Array<[Title, string]> = [];
      const styles: string[] = [];
      let previous = 0;
      for (const title of titles(all)) {
        if (!styles.includes(title.style)) styles.push(title.style);
        const level = styles.indexOf(title.style) + 1;
        const deeper = styles.slice(level).filter((s) => s.length === 1);
        if (!title.over && level === previous + 1 && level > 1 && deeper.length) found.push([title, deeper[Math.floor(random() * deeper.length)]!]);
        previous = level;
      }
      const chosen = pick(found, random);
      if (!chosen) return null;
      const [title, style] = chosen;
      all[title.line + 1] = style.repeat(all[title.line + 1]!.trimEnd().length);
      return all.join('\n');
    },
  },
  {
    name: 'misspell a role',
    plant(text, random) {
      const all = lines(text);
      const found: Array<[number, number, string]> = [];
      all.forEach((line, i) => {
        for (const m of line.matchAll(/(?<![\w`:]):([a-zA-Z][\w-]{2,}):`/g)) found.push([i, m.index! + 1, m[1]!]);
      });
      const at = pick(found, random);
      if (!at) return null;
      const [i, start, name] = at;
      all[i] = all[i]!.slice(0, start) + typo(name, random) + all[i]!.slice(start + name.length);
      return all.join('\n');
    },
  },
  {
    name: 'misspell a directive option',
    plant(text, random) {
      const all = lines(text);
      // An option line of a directive: indented, right under the directive or its other options.
      const option = (a: string[], i: number) => {
        if (!/^\s+:[a-z][a-z-]{2,}:(\s|$)/.test(a[i]!)) return false;
        let j = i - 1;
        while (j >= 0 && /^\s+:[a-z][\w-]*:(\s|$)/.test(a[j]!) && indent(a[j]!) === indent(a[i]!)) j--;
        return j >= 0 && /^\s*\.\. [\w-]+::/.test(a[j]!) && indent(a[j]!) < indent(a[i]!);
      };
      const i = pick(places(all, option), random);
      if (i === null) return null;
      all[i] = all[i]!.replace(/:([a-z][a-z-]+):/, (_, name: string) => `:${typo(name, random)}:`);
      return all.join('\n');
    },
  },
];

/**
 * The whitespace rules' mistakes (rst2.lint.whitespace). A list of their
 * own, drawn with a random stream of their own: the documents PLANTERS
 * picks stay those it picked before these existed.
 */
export const WHITESPACE_PLANTERS: Planter[] = [
  {
    name: 'leave trailing spaces on a line of prose',
    plant(text, random) {
      const all = lines(text);
      const i = pick(places(all, (a, i) => /^[A-Za-z].*[a-z.,]$/.test(a[i]!)), random);
      if (i === null) return null;
      all[i] = `${all[i]!}${' '.repeat(1 + Math.floor(random() * 3))}`;
      return all.join('\n');
    },
  },
  {
    name: 'indent with a tab where eight spaces were',
    plant(text, random) {
      const all = lines(text);
      const i = pick(places(all, (a, i) => /^ {8}\S/.test(a[i]!)), random);
      if (i === null) return null;
      all[i] = `\t${all[i]!.slice(8)}`;
      return all.join('\n');
    },
  },
  {
    name: 'end a line with a carriage return alone',
    plant(text, random) {
      const all = lines(text);
      const i = pick(places(all, (a, i) => /\S$/.test(a[i]!) && a[i + 1] !== undefined), random);
      if (i === null) return null;
      return [...all.slice(0, i), `${all[i]!}\r${all[i + 1]!}`, ...all.slice(i + 2)].join('\n');
    },
  },
  {
    name: 'drop the final line break',
    plant(text) {
      return text.endsWith('\n') ? text.replace(/\n+$/, '') : null;
    },
  },
];
