/**
 * Deletion keys: each token creation gets a fresh random key that only its
 * creator sees (in the creation answer's X-Rst2-Deletion-Key header); the
 * stores keep only its SHA-256. The key is 256 random bits, so a plain hash
 * is enough (no slow hash: there is nothing to guess). A store finds a hash
 * by one lookup keyed by it (a file name, a set member), never by going
 * through the token's creations, so the time a deletion takes says nothing
 * of which creations, or whether any, there are.
 */
import { createHash, randomBytes } from 'node:crypto';

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

