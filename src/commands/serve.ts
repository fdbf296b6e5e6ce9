/**
 * `rst2 serve`: starts the service with the configuration from the
 * environment (see docs/configuration.rst); --port and --host override
 * PORT and HOST.
 */
import { loadConfig } from '../config.js';
import { createLogger } from '../log.js';
import { startServer } from '../server.js';
import { parseArgs, UsageError } from './args.js';

export const SERVE_USAGE = 'usage: rst2 serve [--port P] [--host H]';

export async function serve(args: string[]): Promise<void> {
  const parsed = parseArgs(args, { port: { kind: 'value' }, host: { kind: 'value' } });
  if (parsed.positionals.length > 0) throw new UsageError(`unknown argument ${JSON.stringify(parsed.positionals[0])}`);
  const env: Record<string, string | undefined> = { ...process.env };
  if (parsed.values.port !== undefined) env.PORT = parsed.values.port;
  if (parsed.values.host !== undefined) env.HOST = parsed.values.host;
  const config = loadConfig(env);
  const log = createLogger(config.logLevel);
  const server = await startServer(config, log);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
