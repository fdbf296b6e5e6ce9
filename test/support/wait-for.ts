/**
 * Waiting for something to happen, instead of sleeping and hoping it has:
 * under load a fixed sleep is either too short (the test fails now and
 * then) or too long (every run pays for it).
 */

export interface WaitOptions {
  /** Named in the error, so a timeout says what never happened. */
  what: string;
  /** Generous: only a broken service should ever reach it. */
  timeoutMs?: number;
  /** Between checks; short, since a check is cheap next to the waits it replaces. */
  intervalMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_INTERVAL_MS = 10;

/**
 * Resolves as soon as `condition` holds (it may be async), or rejects
 * naming `what` once `timeoutMs` has passed. A condition that throws counts
 * as not yet; its last error is reported with the timeout.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, options: WaitOptions): Promise<void> {
  const { what, timeoutMs = DEFAULT_TIMEOUT_MS, intervalMs = DEFAULT_INTERVAL_MS } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await condition()) return;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const why = lastError === undefined ? '' : ` (last check failed: ${lastError instanceof Error ? lastError.message : String(lastError)})`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
