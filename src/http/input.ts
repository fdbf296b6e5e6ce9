/**
 * The one place that turns `rst` | `uri` | `token` into a Document, shared by
 * every route, and that checks a route's parameters against what it accepts.
 */
import { makeDocument, TOKEN_PATTERN, type Document } from '../documents/document.js';
import { fetchDocument, type FetchPolicy } from '../documents/fetch-uri.js';
import type { TokenStore } from '../store/token-store.js';
import { Code, ServiceError } from '../errors.js';
import type { Params } from './params.js';

export type Source = 'rst' | 'uri' | 'token';

export interface InputDeps {
  fetchPolicy: FetchPolicy;
  store: TokenStore;
}

/** Refuses parameters the route does not know, naming the ones it does. */
export function checkKnown(params: Params, known: readonly string[]): void {
  for (const name of params.keys()) {
    if (!known.includes(name)) {
      throw new ServiceError(Code.unknown_parameter, `Unknown parameter "${name}"; this operation accepts ${known.map((k) => `"${k}"`).join(', ')}.`, {
        details: { parameter: name, accepted: known },
      });
    }
  }
}

export async function resolveDocument(params: Params, sources: readonly Source[], deps: InputDeps): Promise<{ document: Document; source: Source }> {
  const given = sources.filter((s) => params.has(s));
  const list = sources.map((s) => `"${s}"`).join(', ');
  if (given.length === 0) {
    throw new ServiceError(Code.input_missing, `Give the document as exactly one of ${list}.`, { details: { accepted: sources } });
  }
  if (given.length > 1) {
    throw new ServiceError(Code.input_ambiguous, `Give the document as exactly one of ${list}, not ${given.map((s) => `"${s}"`).join(' and ')}.`, {
      details: { given },
    });
  }
  const source = given[0]!;
  const value = params.get(source)!;
  switch (source) {
    case 'rst':
      return { document: makeDocument(value), source };
    case 'uri': {
      const fetched = await fetchDocument(value, deps.fetchPolicy);
      return { document: makeDocument(fetched.text, fetched.finalUrl), source };
    }
    case 'token':
      return { document: makeDocument(await tokenText(deps.store, value)), source };
  }
}

/** The text stored under a token from a client: 400 when malformed, 404 when unknown. */
export async function tokenText(store: TokenStore, token: string): Promise<string> {
  if (!TOKEN_PATTERN.test(token)) throw new ServiceError(Code.token_invalid, 'A token is 32 lowercase hexadecimal characters.');
  const text = await loadToken(store, token);
  if (text === undefined) throw new ServiceError(Code.token_not_found, `No document is stored under the token ${token}.`);
  return text;
}

async function loadToken(store: TokenStore, token: string): Promise<string | undefined> {
  try {
    return await store.load(token);
  } catch (err) {
    throw new ServiceError(Code.store_unavailable, 'The token store cannot be reached right now.', { cause: err });
  }
}
