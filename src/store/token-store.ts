/** Where documents registered under a token live. */
export interface TokenStore {
  /** Stores the text under its token; storing the same token again is harmless. */
  save(token: string, text: string): Promise<void>;
  /** The text, or undefined for a token never stored. */
  load(token: string): Promise<string | undefined>;
  /** Throws when the store cannot be used now (for /ready; /health leaves the store alone). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
