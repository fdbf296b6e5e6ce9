/**
 * A local cache in front of a shared one: renderings are looked up in this
 * instance's memory first, then in the shared cache (Redis), and kept in
 * both. When the shared cache fails (Redis down), its errors are logged and
 * taken as misses, so renders go on with the local cache alone.
 */
import { errorFields, type Logger } from '../log.js';
import type { RenderCache, Rendering } from './render-cache.js';

export class TieredCache implements RenderCache {
  /** Logs the start and end of an outage once each, not every failed call. */
  private sharedFailing = false;

  constructor(
    private readonly local: RenderCache,
    private readonly shared: RenderCache,
    private readonly log: Logger,
  ) {}

  async get(key: string): Promise<Rendering | undefined> {
    const near = await this.local.get(key);
    if (near) return near;
    const far = await this.guard('get', () => this.shared.get(key));
    if (far) await this.local.set(key, far);
    return far;
  }

  async set(key: string, value: Rendering): Promise<void> {
    await this.local.set(key, value);
    await this.guard('set', () => this.shared.set(key, value));
  }

  private async guard<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await call();
      if (this.sharedFailing) {
        this.sharedFailing = false;
        this.log.info('shared render cache available again');
      }
      return result;
    } catch (err) {
      if (!this.sharedFailing) {
        this.sharedFailing = true;
        this.log.warn('shared render cache unavailable; using the local cache only', { op: what, ...errorFields(err) });
      } else {
        this.log.debug('shared render cache call failed', { op: what, ...errorFields(err) });
      }
      return undefined;
    }
  }
}
