/**
 * The embedded render cache: least recently used entries go first once the
 * bodies together pass the byte budget. With a maximum age (fetched images,
 * which may change upstream), an older entry is a miss.
 */
import type { RenderCache, Rendering } from './render-cache.js';

export class MemoryCache implements RenderCache {
  private readonly entries = new Map<string, Rendering>();
  private readonly born = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxAgeMs = Infinity,
  ) {}

  async get(key: string): Promise<Rendering | undefined> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - (this.born.get(key) ?? 0) > this.maxAgeMs) {
      this.remove(key, hit);
      return undefined;
    }
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
    if (old) this.remove(key, old);
    this.entries.set(key, value);
    this.born.set(key, Date.now());
    this.bytes += value.body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest, entry);
    }
  }

  private remove(key: string, entry: Rendering): void {
    this.entries.delete(key);
    this.born.delete(key);
    this.bytes -= entry.body.length;
  }

  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
