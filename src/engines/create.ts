/** Builds the engines from the configuration; shared by the server and the CLI. */
import fs from 'node:fs';
import path from 'node:path';

import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { paths } from '../paths.js';
import { PythonEngine } from './python/engine.js';
import { MissingPdfEngine } from './tex/missing-engine.js';
import type { PdfEngine } from './tex/pdf-engine.js';

export function createPythonEngine(config: Config, log: Logger, workers = config.workers): PythonEngine {
  if (!fs.existsSync(paths.pythonBundle)) {
    throw new Error(`the docutils bundle ${paths.pythonBundle} is missing: run npm install`);
  }
  return new PythonEngine({
    workers,
    queueLimit: config.queueLimit,
    timeoutMs: config.renderTimeoutMs,
    bundlePath: paths.pythonBundle,
    pythonSources: paths.pythonSources,
    stylesDir: paths.styles,
    limits: { maxOutputBytes: config.maxOutputBytes, maxNestingDepth: config.maxNestingDepth },
    heapBudgetBytes: config.workerHeapBudgetBytes,
    log,
  });
}

/** pdfTeX when it is built, else an engine that answers every PDF with 503. */
export async function createPdfEngine(config: Config, log: Logger, workers = config.texWorkers): Promise<PdfEngine> {
  if (!fs.existsSync(path.join(paths.texDir, 'manifest.json'))) {
    return new MissingPdfEngine('the pdfTeX engine is not built (run npm install).');
  }
  const { TexEngine } = await import('./tex/engine.js');
  return new TexEngine({
    workers,
    queueLimit: config.queueLimit,
    timeoutMs: config.pdfTimeoutMs,
    stallMs: config.pdfStallMs,
    texDir: paths.texDir,
    formatDir: config.texFormatDir,
    formatMaxBytes: config.texFormatBytes,
    formatQueueLimit: config.texFormatQueue,
    luaSpareIdleMs: config.luaSpareIdleMs,
    log,
  });
}
