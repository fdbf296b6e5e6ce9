/**
 * Deletion keys: each token creation gets a fresh random key that only its
 * creator sees (in the creation answer's X-Rst2-Deletion-Key header); the
 * stores keep only its SHA-256. The key is 256 random bits, so a plain hash
 * is enough (no slow hash: there is nothing to guess), and comparing hashes
 * in constant time leaves nothing to learn from timing either.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header that carries a key: out of the URL, which ends up in logs. */
export const DELETION_KEY_HEADER = 'X-Rst2-Deletion-Key';
/** 32 random bytes, base64url without padding. */
export const DELETION_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A stored hash: SHA-256, lowercase hex. */
export const KEY_HASH_PATTERN = /^[0-9a-f]{64}$/;

export function makeDeletionKey(): string {
  return randomBytes(32).toString('base64url');
}

export function hashDeletionKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * The stored hash equal to `hash`, or undefined. Every candidate is compared
 * in full, whatever matched before, so the time taken says nothing about
 * which or how much of one matched.
 */
export function findKeyHash(stored: readonly string[], hash: string): string | undefined {
  const wanted = Buffer.from(hash, 'utf8');
  let found: string | undefined;
  for (const candidate of stored) {
    const bytes = Buffer.from(candidate, 'utf8');
    if (bytes.length === wanted.length && timingSafeEqual(bytes, wanted) && found === undefined) found = candidate;
  }
  return found;
}
