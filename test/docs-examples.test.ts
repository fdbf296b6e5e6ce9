/**
 * Every shell example of the docs (docs/*.rst) and of the README, run with
 * the real curl against a real server, its output compared with what the page
 * shows, so no example can drift.
 *
 * The convention (stated for readers in docs/index.rst, "How to read the
 * examples"):
 * - An example is a console block: `.. code:: console` in docs/*.rst,
 *   ```console in README.md. A curl call of the service (a line with `curl`
 *   and `localhost:8080`) anywhere else fails the test: it would not be run.
 * - In a block, a line starting with `$ ` is a command (a line ending in `\`
 *   goes on in the next); the lines up to the next command are its output.
 * - The commands of one block run in order in one bash (so `TOKEN=$(...)`
 *   carries over), in a fresh folder holding the documents the pages stand
 *   for (FILES below: doc.rst, a plain document; README.rst, a PyPI
 *   description; docs/usage.rst, a Sphinx page), with `http://localhost:8080`
 *   replaced by the test server's URL and `https://example.org` by a local
 *   upstream's, which serves the same files (so an example with a `uri` is
 *   fetched from it; the test server may fetch from loopback, unlike the
 *   others). Every command must exit 0.
 * - A command's output is compared line by line with the lines shown, the
 *   server's URL written back as `http://localhost:8080`: `...` in a line
 *   stands for any text, and a line that is only `...` for any lines.
 * - A command with no output shown is still checked: every curl answer it
 *   gets must be 2xx, with the content type the API reference's operation
 *   table (docs/api.rst) gives for that method and path.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { paths } from '../src/paths.js';
import type { RunningServer } from '../src/server.js';
import { consoleBlocks, docsPages, unrunCurlLines, type ConsoleBlock } from './support/docs.js';
import { requireTex } from './support/tex.js';
import { server, tempDir } from './support/server.js';

const DOCS_URL = 'http://localhost:8080';
const UPSTREAM_URL = 'https://example.org';

/** The documents the examples name, in the folder they run in (and at the upstream). */
const FILES: Record<string, string> = {
  'doc.rst': 'A document\n==========\n\nSome *text* and a list:\n\n- one\n- two\n',
  'README.rst': 'example-package\n===============\n\nA package that does one thing, with a `home page <https://example.org/>`_.\n\nUsage\n-----\n\n::\n\n    example --help\n',
  'docs/usage.rst':
    'Usage\n=====\n\n.. toctree::\n   :maxdepth: 2\n\n   install\n   api\n\nSee :ref:`install` and :func:`example.run`; the :option:`--help` option lists the others.\n\n' +
    '.. versionadded:: 1.2\n   The ``--quiet`` option.\n\n.. code-block:: python\n\n   example.run(quiet=True)\n',
};

interface Command {
  text: string;
  /** The output shown under it. */
  shown: string[];
}

/** A block's commands with the output shown under each. */
function commandsOf(block: ConsoleBlock): Command[] {
  const commands: Command[] = [];
  for (let i = 0; i < block.lines.length; i++) {
    const line = block.lines[i]!;
    if (line.startsWith('$ ')) {
      let text = line.slice(2);
      while (text.endsWith('\\') && i + 1 < block.lines.length) text = `${text.slice(0, -1)}${block.lines[++i]!}`;
      commands.push({ text, shown: [] });
    } else {
      if (commands.length === 0) throw new Error(`${block.where}: output before any command`);
      commands[commands.length - 1]!.shown.push(line);
    }
  }
  return commands;
}

/** Whether the output matches what is shown: `...` is any text, a line of `...` any lines. */
function matches(actual: string[], shown: string[]): boolean {
  const line = (a: string, s: string) => new RegExp(`^${s.split('...').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(a);
  const from = (i: number, j: number): boolean => {
    if (j === shown.length) return i === actual.length;
    if (shown[j] === '...') {
      for (let k = i; k <= actual.length; k++) if (from(k, j + 1)) return true;
      return false;
    }
    return i < actual.length && line(actual[i]!, shown[j]!) && from(i + 1, j + 1);
  };
  return from(0, 0);
}

/** What the API reference's operation table says each method and path answers: a media type, or a status without a body. */
interface Claim {
  method: string;
  path: RegExp;
  media?: string;
  status?: number;
  row: string;
}

function apiClaims(): Claim[] {
  const api = docsPages().find((p) => p.name === 'api')!.text;
  const start = api.indexOf('   * - operation\n     - method and path\n');
  expect(start, 'docs/api.rst: the operation table').to.be.greaterThan(-1);
  const table = api.slice(start, api.indexOf('\n\n', start));
  const claims: Claim[] = [];
  for (const row of table.split('\n   * - ').slice(1)) {
    const cells = row.split('\n     - ').map((c) => c.trim());
    const [name, methodAndPath, , , response] = cells as [string, string, string, string, string];
    const m = /^([A-Z, ]+) ``([^`]+)``/.exec(methodAndPath);
    if (!m) continue;
    const pathPattern = new RegExp(`^${m[2]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<\w+>/g, '[^/]+')}$`);
    const media = /^``([a-z]+\/[a-z0-9.+-]+)/.exec(response)?.[1];
    const status = /^``(\d{3})``/.exec(response)?.[1];
    for (const method of m[1]!.split(',').map((x) => x.trim())) claims.push({ method, path: pathPattern, media, status: status ? Number(status) : undefined, row: name });
  }
  return claims;
}

/** Runs a block's commands in one bash; each command's stdout, and the curl answers it got. */
async function runBlock(commands: Command[], base: string, upstream: string): Promise<Array<{ rc: number; out: string; answers: string[]; err: string }>> {
  const work = tempDir('docs-example');
  for (const [name, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(work, name)), { recursive: true });
    fs.writeFileSync(path.join(work, name), text);
  }
  const out = path.join(work, '.out');
  fs.mkdirSync(out);
  const script = [
    `cd ${JSON.stringify(work)}`,
    // Each answer's method, status, type and URL, on stderr; an example's own -w comes later and wins.
    `curl() { command curl -w '%{stderr}RST2-ANSWER %{method} %{http_code} %{url_effective} %{content_type}\\n' "$@"; }`,
    ...commands.map((c, i) => {
      const text = c.text.replaceAll(DOCS_URL, base).replaceAll(UPSTREAM_URL, upstream);
      return `{ ${text}\n} >${JSON.stringify(`${out}/${i}.out`)} 2>${JSON.stringify(`${out}/${i}.err`)}; echo $? >${JSON.stringify(`${out}/${i}.rc`)}`;
    }),
  ].join('\n');
  // Not spawnSync: the server answering the examples runs in this process.
  const bash = spawn('bash', ['-c', script], { stdio: 'ignore', timeout: 240_000 });
  await new Promise<void>((resolve, reject) => {
    bash.once('error', reject);
    bash.once('exit', () => resolve());
  });
  return commands.map((_, i) => {
    const read = (ext: string) => (fs.existsSync(`${out}/${i}.${ext}`) ? fs.readFileSync(`${out}/${i}.${ext}`, 'utf8') : '');
    const err = read('err');
    return { rc: Number(read('rc').trim() || 'NaN'), out: read('out'), answers: err.split(/[\r\n]/).filter((l) => l.startsWith('RST2-ANSWER ')), err };
  });
}

const CURL = spawnSync('curl', ['--version']).status === 0;

describe('docs: every curl example answers what the page shows', function () {
  let s: RunningServer;
  let upstream: http.Server;
  let upstreamUrl: string;
  const blocks = consoleBlocks();

  before(async function () {
    if (!CURL) {
      if (process.env['CI']) throw new Error('CI: curl is missing (the clean room has it; apt-get install curl)');
      console.log('      skipped: no curl on this machine (apt-get install curl)');
      this.skip();
    }
    // The examples show PDFs.
    requireTex(this);
    // Only this server fetches from loopback: the upstream standing for https://example.org.
    s = await server({ RST2_ALLOW_PRIVATE_URI: '1' });
    upstream = http.createServer((req, res) => {
      const text = FILES[decodeURIComponent((req.url ?? '/').slice(1))];
      res.writeHead(text === undefined ? 404 : 200, { 'Content-Type': 'text/plain; charset=utf-8' }).end(text ?? 'not here');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });

  after(async () => {
    if (upstream) await new Promise((resolve) => upstream.close(resolve));
  });

  it('finds the examples: the README has five curl examples, and no curl call of the service is outside a console block', () => {
    const readme = blocks.filter((b) => b.where.startsWith('README.md'));
    expect(readme.flatMap((b) => commandsOf(b)).filter((c) => /\bcurl\b/.test(c.text)).length, 'curl commands in the README').to.be.at.least(5);
    expect(readme.length, 'example blocks in the README').to.equal(5);
    expect(blocks.filter((b) => b.where.startsWith('docs/')).length).to.be.at.least(5);
    expect(unrunCurlLines(), 'curl examples that no test would run').to.deep.equal([]);
  });

  it('reads the operation table of the API reference', () => {
    const claims = apiClaims();
    const claim = (method: string, p: string) => claims.find((c) => c.method === method && c.path.test(p));
    expect(claim('POST', '/1.0/rst2/html')?.media).to.equal('text/html');
    expect(claim('GET', '/1.0/rst2/pdf/classes')?.media).to.equal('application/xml');
    expect(claim('DELETE', `/1.0/rst2/token/${'a'.repeat(32)}`)?.status).to.equal(204);
  });

  for (const block of blocks) {
    it(`${block.where}: ${commandsOf(block).length} command(s)`, async () => {
      const commands = commandsOf(block);
      const results = await runBlock(commands, s.url, upstreamUrl);
      const claims = apiClaims();
      commands.forEach((command, i) => {
        const result = results[i]!;
        const what = `${block.where}: $ ${command.text}`;
        expect(result.rc, `${what}\nexit status (stderr: ${result.err.replace(/RST2-ANSWER[^\n]*\n?/g, '').slice(0, 500)})`).to.equal(0);
        if (command.shown.length > 0) {
          const actual = result.out.replace(/\n$/, '').replaceAll(s.url, DOCS_URL).replaceAll(upstreamUrl, UPSTREAM_URL).split('\n');
          expect(matches(actual, command.shown), `${what}\nshows:\n${command.shown.join('\n')}\nbut prints:\n${actual.join('\n')}`).to.equal(true);
          return;
        }
        // Nothing shown: each answer a success, of the type the API reference gives.
        for (const answer of result.answers) {
          const [, method, status, url, ...type] = answer.split(' ') as [string, string, string, string, ...string[]];
          const urlPath = new URL(url).pathname;
          const claim = claims.find((c) => c.method === method && c.path.test(urlPath));
          expect(claim, `${what}\n${method} ${urlPath} is not in the API reference's operation table: show its output`).to.not.equal(undefined);
          expect(Number(status), `${what}\n${answer}`).to.be.within(200, 299);
          if (claim!.status !== undefined) expect(Number(status), `${what}\nthe table (${claim!.row}) says ${claim!.status}`).to.equal(claim!.status);
          else expect(type.join(' ').split(';')[0], `${what}\nthe table (${claim!.row}) says ${claim!.media}`).to.equal(claim!.media);
        }
      });
    });
  }
});
