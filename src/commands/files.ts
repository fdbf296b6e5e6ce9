/**
 * The FILE arguments of the render commands: reading one (or standard input,
 * `-`) as the service reads a document.
 */
import fs from 'node:fs';

import { Code, ServiceError } from '../errors.js';

/** A FILE as read: its text, whether its bytes began with a BOM (the text does not), and what it was when read (not for `-`). */
export interface Input {
  file: string;
  text: string;
  bom: boolean;
  seen?: { mtimeMs: number; size: number };
}

const BOM = [0xef, 0xbb, 0xbf];

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function readInput(file: string): Promise<Input> {
  let bytes: Buffer;
  let seen: Input['seen'];
  if (file === '-') {
    bytes = await readStdin();
  } else {
    try {
      const handle = await fs.promises.open(file, 'r');
      try {
        const stat = await handle.stat();
        if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
        bytes = await handle.readFile();
        seen = { mtimeMs: stat.mtimeMs, size: stat.size };
      } finally {
        await handle.close();
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new ServiceError(Code.unreadable, `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message}`);
    }
  }
  let text: string;
  try {
    // The service refuses invalid UTF-8 rather than quietly replacing it; so does the CLI. A BOM is not part of the text.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ServiceError(Code.invalid_utf8, `${file === '-' ? 'standard input' : file} is not valid UTF-8`);
  }
  const bom = BOM.every((b, i) => bytes[i] === b);
  return seen === undefined ? { file, text, bom } : { file, text, bom, seen };
}

export function writeStdout(data: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(data, (err) => (err ? reject(err) : resolve()));
  });
}
