/**
 * Parsers for the code-block languages Python's standard library has none
 * for: shell, C, C++, JavaScript and TypeScript, as tree-sitter grammars in
 * WebAssembly. Each Pyodide worker loads them next to its interpreter and
 * hands them to Python as the module `rst2_syntax`
 * (python/rst2/lint/code/treesitter.py), so the check stays in-process with
 * nothing installed, where rstcheck runs `bash -n` and a C++ compiler.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

/**
 * Our name for a grammar -> the npm package and file it comes in; the
 * single binary ships only these files. Bash comes from its own package:
 * tree-sitter-wasms' build of it calls `isalpha`, which web-tree-sitter
 * 0.25's runtime no longer exports, so its first parse threw.
 */
export const GRAMMARS = {
  bash: ['tree-sitter-bash', 'tree-sitter-bash.wasm'],
  c: ['tree-sitter-wasms', 'out/tree-sitter-c.wasm'],
  cpp: ['tree-sitter-wasms', 'out/tree-sitter-cpp.wasm'],
  javascript: ['tree-sitter-wasms', 'out/tree-sitter-javascript.wasm'],
  typescript: ['tree-sitter-wasms', 'out/tree-sitter-typescript.wasm'],
} as const;

export type GrammarName = keyof typeof GRAMMARS;

/** The name Python imports them by. */
export const SYNTAX_MODULE = 'rst2_syntax';

/** What Python sees as `rst2_syntax`. */
export interface SyntaxModule {
  languages: GrammarName[];
  /** JSON `[line, column, message]` of a block's first syntax error (0-based, column in characters), or `null`. */
  first_error(language: string, text: string): string;
  /**
   * What the grammars' WebAssembly memory grew by since loading. Like
   * Python's it never shrinks, so a block built to blow up the parser would
   * keep its growth for the worker's life: the worker counts it in the heap
   * its pool recycles it by. After the parser failed, past any budget: its
   * state is not to be trusted.
   */
  grownBytes(): number;
}

// As web-tree-sitter would make it (32 MiB, up to 2 GiB), but ours, so its size can be read.
const MEMORY = { initial: 512, maximum: 32768 };

/** Where each grammar's file is, as installed; relative to the project in the single binary too. */
export function grammarFiles(): Record<GrammarName, string> {
  const require = createRequire(import.meta.url);
  const files = {} as Record<GrammarName, string>;
  for (const [name, [pkg, file]] of Object.entries(GRAMMARS) as Array<[GrammarName, readonly [string, string]]>) {
    files[name] = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
  }
  return files;
}

/**
 * The first node that does not parse, in document order: where a reader
 * would look first. Walked with a cursor, not recursion: a document may
 * nest ten thousand brackets, and the walk must not run out of stack.
 */
function firstBroken(tree: Tree): Node | null {
  const cursor = tree.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) return node;
      // Down into a node that holds an error, else on to the next sibling,
      // climbing out of finished parents.
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return null;
      }
    }
  } finally {
    cursor.delete();
  }
}

function describe(node: Node): string {
  if (node.isMissing) return `missing ${JSON.stringify(node.type)}`;
  const text = node.text.split('\n', 1)[0]!.trim();
  if (!text) return 'unexpected end of the block';
  return `unexpected ${JSON.stringify(text.length > 30 ? `${text.slice(0, 30)}…` : text)}`;
}

/**
 * Loads every grammar; null when they cannot be had (a trimmed install):
 * Python then reports nothing for these languages, as for any it cannot parse.
 * `cancelled` is polled while parsing, so a render timeout also stops a parse.
 */
export async function loadCodeParsers(cancelled: () => boolean): Promise<SyntaxModule | null> {
  const files = grammarFiles();
  const names = Object.keys(files) as GrammarName[];
  if (!names.every((name) => fs.existsSync(files[name]))) return null;
  const memory = new WebAssembly.Memory(MEMORY);
  await Parser.init({ wasmMemory: memory });
  let broken = false;
  const languages = new Map<string, Language>();
  for (const name of names) languages.set(name, await Language.load(files[name]));
  const parser = new Parser();
  return {
    languages: names,
    first_error(language: string, text: string): string {
      const grammar = languages.get(language);
      if (!grammar) return 'null';
      parser.setLanguage(grammar);
      // A parser that fails on some input costs that block its check, not
      // the document its check: the error is not the author's. Its state is
      // then not to be trusted, and the pool replaces this worker.
      let tree: Tree | null = null;
      try {
        tree = parser.parse(text, null, { progressCallback: () => cancelled() });
        const fault = tree && firstBroken(tree);
        if (!fault) return 'null';
        const { row, column } = fault.startPosition;
        // tree-sitter counts columns in UTF-8 bytes; the document in characters.
        const line = text.split('\n')[row] ?? '';
        const chars = Buffer.from(line, 'utf8').subarray(0, column).toString('utf8').length;
        return JSON.stringify([row, chars, describe(fault)]);
      } catch {
        broken = true;
        return 'null';
      } finally {
        tree?.delete();
      }
    },
    grownBytes: () => (broken ? Number.MAX_SAFE_INTEGER : memory.buffer.byteLength - MEMORY.initial * 65536),
  };
}
