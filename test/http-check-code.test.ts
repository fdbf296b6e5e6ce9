/**
 * The code rules whose languages are parsed by tree-sitter grammars in the
 * worker (src/engines/python/code-parsers.ts, python/rst2/lint/code/treesitter.py):
 * over HTTP, through the real pool, since only there does Python have them.
 */
import { expect } from 'chai';

import type { CheckItem as Item } from '../src/engines/python/protocol.js';
import type { RunningServer } from '../src/server.js';
import { api, form, server } from './support/server.js';

function block(language: string, code: string, before = 'An example:'): string {
  return `Title\n=====\n\n${before}\n\n.. code-block:: ${language}\n\n${code.replace(/^(?=.)/gm, '   ')}\nAfter.\n`;
}

describe('code blocks parsed by tree-sitter grammars, over HTTP', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  async function found(rst: string, select = 'code'): Promise<Item[]> {
    const res = await api(s, '/1.0/rst2/check', form({ rst, select }));
    expect(res.status).to.equal(200);
    return (await res.json()) as Item[];
  }

  it('report a shell block that does not parse, at its line and column in the document', async () => {
    const items = await found(block('bash', 'if [ -n "$X" ]; then\n  echo "unclosed\nfi\n'));
    expect(items).to.have.length(1);
    expect(items[0]).to.include({ rule: 'code-bash', type: 'error' });
    expect(items[0]!.message).to.match(/^Shell does not parse: /);
    // Line 8 of the document is the block's first: tree-sitter marks the
    // whole `if` the open quote leaves unfinished (column 1-based, after the
    // block's indent).
    expect(items[0]!.line).to.equal(8);
    expect(items[0]!.column).to.equal(4);
  });

  it('pass the shell a reader copies: sessions by their commands, outlines left alone', async () => {
    const session = '$ python -m venv env\n(env) $ pip install -e . \\\n    --no-deps\nSuccessfully installed (1 package)\n~/app$ ls\n';
    expect(await found(block('console', session))).to.deep.equal([]); // console: a session, not checked
    expect(await found(block('bash', session))).to.deep.equal([]);
    expect(await found(block('sh', 'pip install <package>\n'))).to.deep.equal([]);
    expect(await found(block('bash', 'for f in *.rst; do rst2 check "$f"; done\n'))).to.deep.equal([]);
  });

  it('report JavaScript and TypeScript, and nothing for code that parses', async () => {
    const js = await found(block('javascript', 'const x = {\n  a: 1\n;\n'));
    expect(js.map((i) => i.rule)).to.deep.equal(['code-javascript']);
    expect(js[0]!.message).to.match(/^JavaScript does not parse: /);
    const ts = await found(block('ts', 'let n: = 1;\n'));
    expect(ts.map((i) => i.rule)).to.deep.equal(['code-typescript']);
    expect(ts[0]!.column).to.equal(9); // "   let n: = 1;": the colon tree-sitter cannot take, 1-based
    expect(await found(block('js', 'export const f = async (a) => `${a}`.match(/x+/g) ?? [];\n'))).to.deep.equal([]);
    expect(await found(block('typescript', 'interface A<T> { b?: T[] }\nexport type B = A<string> | null;\n'))).to.deep.equal([]);
  });

  it('leave C and C++ to those who ask, and there take a part of a file as the part it is', async () => {
    const prototype = 'PyObject *PyList_New(Py_ssize_t len)\n';
    const broken = 'int main(void) {\n  return (1;\n}\n';
    expect(await found(block('c', broken), 'DEFAULT')).to.deep.equal([]);
    expect((await found(block('c', broken), 'code-c')).map((i) => i.rule)).to.deep.equal(['code-c']);
    expect((await found(block('cpp', broken), 'code-cpp')).map((i) => i.rule)).to.deep.equal(['code-cpp']);
    // A prototype as a header declares it, an initialiser's fields, a function's body.
    expect(await found(block('c', prototype), 'code-c')).to.deep.equal([]);
    expect(await found(block('c', '.tp_name = "custom.Custom",\n.tp_basicsize = sizeof(CustomObject),\n'), 'code-c')).to.deep.equal([]);
    expect(await found(block('c', 'if (x == NULL)\n    return NULL;\nPy_INCREF(x);\n'), 'code-c')).to.deep.equal([]);
  });

  it('find the error in a block nested twenty thousand brackets deep, and go on serving', async () => {
    const deep = `x = ${'('.repeat(20_000)}1 + ${')'.repeat(20_000)}\n`;
    const items = await found(block('js', deep));
    expect(items.map((i) => [i.rule, i.line])).to.deep.equal([['code-javascript', 8]]);
    expect(await found(block('js', 'const ok = 1;\n'))).to.deep.equal([]);
  });

  it('spare a block the sentence before it calls broken, and honour a suppression', async () => {
    expect(await found(block('bash', 'echo "unclosed\n', 'This fails to parse:'))).to.deep.equal([]);
    const suppressed = block('bash', 'echo "unclosed\n').replace('.. code-block::', '.. rst2: disable-next code-bash\n\n.. code-block::');
    expect(await found(suppressed)).to.deep.equal([]);
  });
});
