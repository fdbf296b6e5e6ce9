/**
 * The Python engine for a command that needs nothing else (`check`), with
 * as many workers as the command can keep busy, started and stopped around
 * its use.
 */
import { loadConfig } from '../config.js';
import { createPythonEngine } from '../engines/create.js';
import type { PythonEngine } from '../engines/python/engine.js';
import { createLogger, type Logger, type LogLevel } from '../log.js';

// Show "starting engines..." only when the warm-up is noticeable.
const PROGRESS_AFTER_MS = 300;

export function cliLogger(env: NodeJS.ProcessEnv): Logger {
  // Quiet unless asked: the engines' info lines are for the service's log.
  const level = (env.RST2_LOG_LEVEL ? loadConfig(env).logLevel : 'error') as LogLevel;
  return createLogger(level);
}

/** `jobs`: how many documents there are; no more workers than that, nor than RST2_WORKERS (default: the CPUs). */
export async function withPython<T>(jobs: number, use: (python: PythonEngine, workers: number) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const workers = Math.max(1, Math.min(jobs, config.workers));
  const python = createPythonEngine(config, cliLogger(process.env), workers);
  const timer = setTimeout(() => process.stderr.write('rst2: starting engines...\n'), PROGRESS_AFTER_MS);
  try {
    await python.start().finally(() => clearTimeout(timer));
    return await use(python, workers);
  } finally {
    await python.close();
  }
}
