/**
 * One Redis connection, set up to fail fast: while Redis is unreachable every
 * command is refused at once (no offline queue) or ends within the command
 * timeout, so a request waits at most that long before it is answered 503 or
 * served without the shared cache. ioredis keeps reconnecting in the
 * background, and everything resumes as soon as Redis is back.
 */
import { Redis } from 'ioredis';

import type { Logger } from '../log.js';

export interface RedisConnectionOptions {
  url: string;
  /** Bound on connecting and on each command. */
  timeoutMs: number;
  /** Names the connection in the log and in Redis' CLIENT LIST. */
  name: string;
  log: Logger;
}

/** Reconnect delays grow to this and stay: a returning Redis is noticed within it. */
const MAX_RECONNECT_DELAY_MS = 1000;

export function connectRedis(options: RedisConnectionOptions): Redis {
  const { log, name } = options;
  const client = new Redis(options.url, {
    connectionName: `rst2-${name}`,
    connectTimeout: options.timeoutMs,
    commandTimeout: options.timeoutMs,
    // Refuse commands while disconnected instead of queueing them until Redis
    // returns (which could be never); a command caught by a dropped connection
    // fails instead of being resent.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Never give up: the service outlives any Redis outage.
    retryStrategy: (times) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
    // Redis before 7.2 does not know CLIENT SETINFO; skip it rather than log its error.
    disableClientInfo: true,
    lazyConnect: true,
  });
  // Log changes of state, not every failed reconnect: an outage is one line.
  let up = false;
  let lastError = '';
  client.on('ready', () => {
    up = true;
    lastError = '';
    log.info('redis connected', { connection: name });
  });
  client.on('error', (err: Error) => {
    if (err.message === lastError) return;
    lastError = err.message;
    // The message says it all (ECONNREFUSED, timeouts); the stack would be ioredis' internals.
    log.warn('redis error', { connection: name, err: err.message });
  });
  client.on('close', () => {
    if (!up) return;
    up = false;
    log.warn('redis connection lost; reconnecting', { connection: name });
  });
  return client;
}

/**
 * Connects once at start, waiting at most the timeout. A Redis that is down
 * at start does not stop the service (it keeps reconnecting): tokens answer
 * 503 and /ready fails until it is reachable (/health renders and does not
 * ask: restarting the process would not bring Redis back).
 */
export async function firstConnect(client: Redis, log: Logger, name: string): Promise<void> {
  try {
    await client.connect();
  } catch (err) {
    log.warn('redis not reachable at start; will keep trying', { connection: name, err: err instanceof Error ? err.message : String(err) });
  }
}

/** Quits politely when connected, else drops the socket and stops reconnecting. */
export async function closeRedis(client: Redis): Promise<void> {
  client.removeAllListeners('close'); // a deliberate close is no outage to log
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      /* fall through to disconnect */
    }
  }
  client.disconnect();
}
