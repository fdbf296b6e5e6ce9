/**
 * Fetches the document behind the API's `uri=` parameter, and the images of
 * PDF documents (src/images/), without letting a
 * client turn the service into a proxy into its own network: only http(s),
 * bounded size and time, redirects followed by hand so every hop is checked,
 * and the address check done inside the socket's DNS lookup so that what is
 * checked is what is connected to (no DNS-rebinding gap).
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import fetch, { type Response } from 'node-fetch';

import type { Config } from '../config.js';
import { Code, ServiceError } from '../errors.js';
import { classifyAddress, describeAddressClass, isLinkLocalClass, mayConnect, type AddressAllowance, type AddressClass } from './address-policy.js';

export interface FetchPolicy extends AddressAllowance {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  allowPrivate: boolean;
}

/** The service's policy: its settings (RST2_URI_*, RST2_ALLOW_*_URI), read once in config.ts. */
export function fetchPolicyOf(
  config: Pick<Config, 'uriMaxBytes' | 'uriTimeoutMs' | 'uriMaxRedirects' | 'allowPrivateUri' | 'allowLinkLocalUri'>,
): FetchPolicy {
  return {
    maxBytes: config.uriMaxBytes,
    timeoutMs: config.uriTimeoutMs,
    maxRedirects: config.uriMaxRedirects,
    allowPrivate: config.allowPrivateUri,
    allowLinkLocal: config.allowLinkLocalUri,
  };
}

const USER_AGENT = 'rst2/0.1';
const DOCUMENT_ACCEPT = 'text/x-rst, text/plain;q=0.9, */*;q=0.5';

/** What is being fetched, for the messages: the `uri` document or an image of one. */
export type FetchSubject = 'document' | 'image';

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Which URL a message is about: the client's own or one the upstream sent us to. */
export type HopKind = 'uri' | 'redirect';

function invalid(kind: HopKind, problem: string, cause?: unknown, subject: FetchSubject = 'document'): ServiceError {
  const text =
    kind === 'uri' ? `The ${subject} URL ${problem}.` : `The ${subject} URL redirects to a URL that ${problem}.`;
  return new ServiceError(Code.uri_invalid, text, { cause });
}

function forbiddenAddress(
  kind: HopKind, cls: AddressClass, resolved: boolean, allowance: AddressAllowance, subject: FetchSubject = 'document',
): ServiceError {
  const what = describeAddressClass(cls);
  const verb = resolved ? 'resolves to' : 'points to';
  // Deliberately no address in the message: echoing what an internal name
  // resolves to would make the service a DNS oracle for the private network.
  const lead = kind === 'uri' ? `The ${subject} URL ${verb}` : `The ${subject} URL redirects to a URL that ${verb}`;
  const rule =
    allowance.allowPrivate && isLinkLocalClass(cls)
      ? `the service does not fetch ${subject}s from link-local or cloud metadata addresses`
      : `the service only fetches ${subject}s from public addresses`;
  return new ServiceError(Code.uri_forbidden_address, `${lead} ${what}; ${rule}.`, { details: { addressClass: cls } });
}

function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Parse and vet one hop: the client's URL (no base) or a redirect Location
 * (resolved against the URL that sent it). Literal IP hosts are judged here
 * because Node connects to them without calling the agent's lookup.
 */
export function checkHopUrl(location: string, policy: AddressAllowance, base?: URL, subject: FetchSubject = 'document'): URL {
  const kind: HopKind = base === undefined ? 'uri' : 'redirect';
  let url: URL;
  try {
    url = new URL(location, base);
  } catch (error) {
    throw invalid(kind, 'is not a valid absolute URL', error, subject);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(kind, `uses the scheme "${url.protocol.slice(0, -1)}"; only http and https are supported`, undefined, subject);
  }
  // node-fetch refuses these itself, but with an unhelpful TypeError.
  if (url.username !== '' || url.password !== '') {
    throw invalid(kind, 'contains credentials, which are not supported', undefined, subject);
  }
  const host = stripBrackets(url.hostname);
  if (isIP(host) !== 0) {
    const cls = classifyAddress(host);
    if (!mayConnect(cls, policy)) throw forbiddenAddress(kind, cls, false, policy, subject);
  }
  return url;
}

/**
 * A socket `lookup` that resolves with dns.lookup and fails the connection if
 * any answer is of a class the policy does not allow. Refusing on any (not
 * just the chosen) address is stricter and keeps Happy Eyeballs, which may
 * try several, from reaching one.
 * `onRefused` receives the client-facing error, because node-fetch rewraps
 * socket errors in a FetchError that keeps only the message and code.
 */
export function createGuardedLookup(
  policy: AddressAllowance,
  onRefused: (error: ServiceError) => void = () => {},
  kind: () => HopKind = () => 'uri',
  subject: FetchSubject = 'document',
): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(
      hostname,
      { family: options.family, hints: options.hints, all: true, order: 'verbatim' },
      (error, addresses) => {
        if (error) {
          callback(error, []);
          return;
        }
        for (const { address } of addresses) {
          const cls = classifyAddress(address);
          if (!mayConnect(cls, policy)) {
            const refused = forbiddenAddress(kind(), cls, true, policy, subject);
            onRefused(refused);
            // The socket only sees this error; the client gets `refused`.
            const socketError = new Error('address refused by fetch policy');
            callback(Object.assign(socketError, { code: 'ERR_RST2_FORBIDDEN_ADDRESS' }), []);
            return;
          }
        }
        // net asks for all addresses when autoSelectFamily is on, one otherwise.
        if (options.all) {
          callback(null, addresses);
          return;
        }
        const first = addresses[0];
        if (first === undefined) {
          callback(Object.assign(new Error(`no addresses for ${hostname}`), { code: 'ENOTFOUND' }), []);
          return;
        }
        callback(null, first.address, first.family);
      },
    );
  };
}

function discardBody(response: Response): void {
  const body = response.body;
  if (body instanceof Readable) body.destroy();
  else body?.resume();
}

async function readLimited(response: Response, maxBytes: number, subject: FetchSubject): Promise<Uint8Array> {
  const tooLarge = () =>
    new ServiceError(Code.uri_too_large, `The ${subject} at the URL is larger than the limit of ${maxBytes} bytes.`, {
      details: { maxBytes },
    });
  // With a content coding the header counts compressed bytes; the limit is on
  // the decoded text, so only then is the header conclusive.
  const declared = response.headers.get('content-length');
  const coding = response.headers.get('content-encoding');
  if (declared !== null && (coding === null || coding === 'identity') && Number(declared) > maxBytes) {
    discardBody(response);
    throw tooLarge();
  }
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  const chunks: Buffer[] = [];
  let total = 0;
  // Leaving the loop early (throw) destroys the stream and with it the socket,
  // so an endless body stops at the limit rather than at the timeout.
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += buffer.length;
    if (total > maxBytes) throw tooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    // ignoreBOM defaults to false, which means the decoder drops a leading BOM.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new ServiceError(Code.uri_not_utf8, 'The document at the URL is not valid UTF-8 text.', { cause: error });
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

const DNS_FAILURES: ReadonlySet<string> = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'ENODATA']);

/** Fetch a reStructuredText document; every failure is a ServiceError. */
export async function fetchDocument(uri: string, policy: FetchPolicy): Promise<{ text: string; finalUrl: string }> {
  const { bytes, finalUrl } = await fetchBytes(uri, policy, { subject: 'document', accept: DOCUMENT_ACCEPT });
  return { text: decodeUtf8(bytes), finalUrl };
}

export interface FetchBytesOptions {
  subject: FetchSubject;
  /** The Accept header. */
  accept: string;
  /** Ends the fetch early (a caller's own deadline); reported as uri_timeout like the policy's. */
  signal?: AbortSignal;
}

/**
 * Fetch the bytes at an http(s) URL under the policy (address checks on
 * every hop, size and time bounds); every failure is a ServiceError.
 */
export async function fetchBytes(uri: string, policy: FetchPolicy, options: FetchBytesOptions): Promise<{ bytes: Uint8Array; finalUrl: string }> {
  const { subject } = options;
  let url = checkHopUrl(uri, policy, undefined, subject);
  let hop: HopKind = 'uri';
  const state: { refused: ServiceError | undefined; timedOut: boolean } = { refused: undefined, timedOut: false };

  const lookup = createGuardedLookup(
    policy,
    (error) => {
      state.refused ??= error;
    },
    () => hop,
    subject,
  );
  // Fresh agents per call: the guard lives in their lookup, and a pooled
  // socket from another call must never be reused for a different policy.
  const httpAgent = new http.Agent({ keepAlive: false, lookup });
  const httpsAgent = new https.Agent({ keepAlive: false, lookup });

  const controller = new AbortController();
  const timer = setTimeout(() => {
    state.timedOut = true;
    controller.abort();
  }, policy.timeoutMs);
  const onAbort = (): void => {
    state.timedOut = true;
    controller.abort();
  };
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(url.href, {
        redirect: 'manual',
        signal: controller.signal,
        headers: { 'User-Agent': USER_AGENT, Accept: options.accept },
        agent: (target: URL) => (target.protocol === 'https:' ? httpsAgent : httpAgent),
      });

      const location = response.headers.get('location');
      if (REDIRECT_STATUSES.has(response.status) && location !== null) {
        discardBody(response);
        if (redirects >= policy.maxRedirects) {
          throw new ServiceError(Code.uri_too_many_redirects,
            `The ${subject} URL redirects more than ${policy.maxRedirects} times.`,
            { details: { maxRedirects: policy.maxRedirects } },
          );
        }
        url = checkHopUrl(location, policy, url, subject);
        hop = 'redirect';
        continue;
      }

      if (!response.ok) {
        discardBody(response);
        throw new ServiceError(Code.uri_upstream_status,
          `The server of the ${subject} URL answered with HTTP status ${response.status}.`,
          { details: { upstreamStatus: response.status } },
        );
      }

      return { bytes: await readLimited(response, policy.maxBytes, subject), finalUrl: url.href };
    }
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    if (state.refused !== undefined) throw state.refused;
    if (state.timedOut) {
      const limit = options.signal?.aborted ? 'its time budget' : `${policy.timeoutMs} ms`;
      throw new ServiceError(Code.uri_timeout, `Fetching the ${subject} URL took longer than ${limit}.`, {
        details: { timeoutMs: policy.timeoutMs },
        cause: error,
      });
    }
    const code = errorCode(error);
    const problem =
      code !== undefined && DNS_FAILURES.has(code)
        ? 'its host name could not be resolved'
        : 'the connection to its server failed';
    throw new ServiceError(Code.uri_unreachable, `The ${subject} URL could not be fetched: ${problem}.`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    httpAgent.destroy();
    httpsAgent.destroy();
  }
}
