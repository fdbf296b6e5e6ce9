/**
 * Records every outgoing TCP connection this process opens and stops any
 * that would leave the machine, before a packet is sent. Tests about
 * addresses such as 169.254.169.254 need it twice over: to show that the
 * service did not even try to connect, and so that a regression makes the
 * test fail instead of reaching a real cloud metadata service.
 *
 * It sees sockets through the 'net.client.socket' diagnostics channel, which
 * Node publishes after creating a client socket and before connecting it.
 */
import dc from 'node:diagnostics_channel';
import net from 'node:net';

const CHANNEL = 'net.client.socket';

/** Loopback, or a Unix socket (`unix:` and its path): nothing that leaves the machine. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (net.isIPv4(host) && host.startsWith('127.')) || host.startsWith('unix:');
}

function targetOf(args: unknown[]): string {
  // net normalises connect() arguments to [options, callback] before it calls it.
  const first: unknown = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: unknown; path?: unknown };
    if (typeof options.host === 'string') return options.host;
    if (typeof options.path === 'string') return `unix:${options.path}`;
  }
  return 'localhost';
}

export class ConnectionGuard {
  /** Every host a client socket tried to connect to, loopback (this test's own requests too) included. */
  readonly attempts: string[] = [];
  private readonly onSocket = (message: unknown): void => {
    const socket = (message as { socket: net.Socket }).socket;
    const connect = socket.connect.bind(socket) as (...args: unknown[]) => net.Socket;
    const guarded = (...args: unknown[]): net.Socket => {
      const host = targetOf(args);
      this.attempts.push(host);
      if (isLoopback(host)) return connect(...args);
      process.nextTick(() => socket.destroy(new Error(`test guard: refused to connect off this machine (${host})`)));
      return socket;
    };
    Object.defineProperty(socket, 'connect', { value: guarded, configurable: true, writable: true });
  };

  install(): this {
    dc.subscribe(CHANNEL, this.onSocket);
    return this;
  }

  uninstall(): void {
    dc.unsubscribe(CHANNEL, this.onSocket);
  }

  /** The attempts to anything but loopback. */
  offMachine(): string[] {
    return this.attempts.filter((host) => !isLoopback(host));
  }
}
