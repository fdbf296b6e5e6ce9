/**
 * Structured log lines (pino: one JSON object per line on stderr). Internals
 * such as stack traces and engine output go here and never into a response.
 *
 * The rest of the code sees only the small Logger interface below, so the
 * engines and the CLI do not depend on pino's call shape.
 */
import { pino, type DestinationStream } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** The same logger with these fields on every line (e.g. a request id). */
  child(fields: Record<string, unknown>): Logger;
}

function wrap(p: pino.Logger): Logger {
  return {
    debug: (m, f) => p.debug(f ?? {}, m),
    info: (m, f) => p.info(f ?? {}, m),
    warn: (m, f) => p.warn(f ?? {}, m),
    error: (m, f) => p.error(f ?? {}, m),
    child: (f) => wrap(p.child(f)),
  };
}

/**
 * `write` receives whole lines; tests pass one to read what was logged.
 * Without it, lines go to stderr synchronously, so nothing is lost when the
 * process exits right after logging (a bad configuration, a fatal error).
 */
export function createLogger(level: LogLevel, write?: (line: string) => void): Logger {
  const destination: DestinationStream = write ? { write } : pino.destination({ fd: 2, sync: true });
  return wrap(
    pino(
      {
        level,
        base: { service: 'rst2' },
        timestamp: pino.stdTimeFunctions.isoTime,
        // Level names, not numbers: easier to grep, and what most log stores expect.
        formatters: { level: (label) => ({ level: label }) },
      },
      destination,
    ),
  );
}

export function errorFields(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { err: err.message.slice(0, 2000), stack: err.stack?.slice(0, 4000) };
  return { err: String(err).slice(0, 2000) };
}
