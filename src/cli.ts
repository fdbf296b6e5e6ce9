#!/usr/bin/env node
/**
 * The rst2 command. `rst2 serve` starts the service with the configuration
 * from the environment (see README, "Configuration").
 */
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './log.js';
import { startServer } from './server.js';

const USAGE = `usage: rst2 serve [--port P] [--host H]`;

async function serve(args: string[]): Promise<void> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[i + 1];
    if ((flag === '--port' || flag === '--host') && value !== undefined) {
      env[flag === '--port' ? 'PORT' : 'HOST'] = value;
      i++;
    } else throw new ConfigError(`unknown argument ${JSON.stringify(flag)}\n${USAGE}`);
  }
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

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'serve' || command === undefined) return serve(rest);
  throw new ConfigError(`unknown command ${JSON.stringify(command)}\n${USAGE}`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`rst2: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`rst2: cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
