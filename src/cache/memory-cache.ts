/**
 * The embedded render cache: least recently used entries go first once the
 * bodies together pass the byte budget.
 */
import type { RenderCache, Rendering } from './render-cache.js';

export class MemoryCache implements RenderCache {
  private readonly entries = new Map<string, Rendering>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  async get(key: string): Promise<Rendering | undefined> {
    const hit = this.entries.get(key);
    if (hit) {
      // Re-insert: Map order is our recency order.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  async set(key: string, value: Rendering): Promise<void> {
    if (value.body.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.body.length;
    }
    this.entries.set(key, value);
    this.bytes += value.body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }

  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
