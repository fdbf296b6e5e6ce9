/**
 * The URL a `rst2 serve` child process listens on, read from its
 * 'listening' log line (JSON on stderr), for tests and benchmarks that start
 * the service as a process of its own.
 */
import type { ChildProcess } from 'node:child_process';

export interface ServeOutput {
  /** Resolves with the URL; rejects if the process exits before listening. */
  url: Promise<string>;
  /** The Node.js version the process runs on, from the same line. */
  node: Promise<string>;
  /** Everything the process wrote to stderr so far. */
  log(): string;
}

export function readServeOutput(child: ChildProcess, what = 'rst2 serve'): ServeOutput {
  let text = '';
  const listening = new Promise<{ url: string; node: string }>((resolve, reject) => {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      text += chunk;
      const line = /^\{.*"msg":"listening".*$/m.exec(text);
      if (line) resolve(JSON.parse(line[0]) as { url: string; node: string });
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before listening: ${text.slice(-2000)}`)));
  });
  const url = listening.then((l) => l.url);
  const node = listening.then((l) => l.node);
  // Callers that only wait for the URL must not see the same rejection unhandled twice.
  node.catch(() => {});
  return { url, node, log: () => text };
}
