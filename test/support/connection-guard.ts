/**
 * Records every outgoing TCP connection this process opens and stops any
 * that would leave the machine, before a packet is sent. Tests about
 * addresses such as 169.254.169.254 need it twice over: to show that the
 * service did not even try to connect, and so that a regression makes the
 * test fail instead of reaching a real cloud metadata service.
 *
 * It wraps net.Socket.prototype.connect, which every client socket (net,
 * http, tls) goes through. Not the 'net.client.socket' diagnostics channel:
 * Node 24's net.connect() calls the prototype's connect directly, so a
 * per-socket override set from that channel is never called and the
 * connection leaves (seen: a real HTTP 403 from 169.254.169.254).
 */
import net from 'node:net';

/** Loopback, or a Unix socket (`unix:` and its path): nothing that leaves the machine. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (net.isIPv4(host) && host.startsWith('127.')) || host.startsWith('unix:');
}

function targetOf(args: unknown[]): string {
  // net normalises connect() arguments to [options, callback] before it calls it;
  // a direct socket.connect(port, host) call passes them as they are.
  const first: unknown = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: unknown; path?: unknown };
    if (typeof options.host === 'string') return options.host;
    if (typeof options.path === 'string') return `unix:${options.path}`;
  }
  if (typeof first === 'string') return `unix:${first}`;
  if (typeof args[1] === 'string') return args[1];
  return 'localhost';
}

type Connect = (this: net.Socket, ...args: unknown[]) => net.Socket;
const original = net.Socket.prototype.connect as unknown as Connect;
const active = new Set<ConnectionGuard>();

function guardedConnect(this: net.Socket, ...args: unknown[]): net.Socket {
  const host = targetOf(args);
  for (const guard of active) guard.attempts.push(host);
  if (isLoopback(host)) return original.apply(this, args);
  process.nextTick(() => this.destroy(new Error(`test guard: refused to connect off this machine (${host})`)));
  return this;
}

export class ConnectionGuard {
  /** Every host a client socket tried to connect to, loopback (this test's own requests too) included. */
  readonly attempts: string[] = [];

  install(): this {
    active.add(this);
    (net.Socket.prototype as unknown as { connect: Connect }).connect = guardedConnect;
    return this;
  }

  uninstall(): void {
    active.delete(this);
    if (active.size === 0) (net.Socket.prototype as unknown as { connect: Connect }).connect = original;
  }

  /** The attempts to anything but loopback. */
  offMachine(): string[] {
    return this.attempts.filter((host) => !isLoopback(host));
  }
}
