/**
 * Where documents registered under a token live.
 *
 * A token is the document's hash, so two people who store the same text get
 * the same token. Each creation is therefore kept as a holder of the text,
 * named by the hash of its own deletion key (deletion-key.ts): deleting one
 * creation never takes the text away from another, and the text goes when
 * its last holder is deleted. A text stored before deletion keys existed has
 * a holder without a key (KEYLESS), so it stays until the store's own
 * retention ends it, whoever creates and deletes it again later.
 */
export interface TokenStore {
  /** Stores the text under its token, held by the creation whose deletion key hashes to keyHash. */
  save(token: string, text: string, keyHash: string): Promise<void>;
  /** The text, or undefined for a token never stored (or deleted). */
  load(token: string): Promise<string | undefined>;
  /**
   * Ends the creation whose key hashes to keyHash; the text goes with its last
   * holder. False when there is no such creation: an unknown token, a wrong
   * key and a creation already deleted are all the same false.
   */
  remove(token: string, keyHash: string): Promise<boolean>;
  /** Throws when the store cannot be used now (for /ready; /health leaves the store alone). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The holder of a text stored before deletion keys existed: no key ends it. */
export const KEYLESS = 'keyless';
