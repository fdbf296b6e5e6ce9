/**
 * The page's client for the rst2 API (same origin). Every call either
 * returns what it asked for or throws an ApiError carrying the service's
 * JSON error (code and message), so callers show one kind of failure.
 */
import type { CheckItem, Fix, FixResult } from '../../src/engines/python/contract.js';

const API = '/1.0/rst2';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** One problem `check` reports: the service's own type, so the page and the service cannot disagree. */
export type CheckMessage = CheckItem;
export type { Fix, FixResult };

interface ErrorBody {
  error?: { code?: unknown; message?: unknown };
}

async function failure(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as ErrorBody;
    const code = typeof body.error?.code === 'string' ? body.error.code : 'http_error';
    const message = typeof body.error?.message === 'string' ? body.error.message : `The service answered ${res.status}.`;
    return new ApiError(res.status, code, message);
  } catch {
    return new ApiError(res.status, 'http_error', `The service answered ${res.status} ${res.statusText}.`);
  }
}

/** The document goes as a raw text/x-rst body, its options in the query string. */
async function post(path: string, text: string, options: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  const query = new URLSearchParams(options).toString();
  let res: Response;
  try {
    res = await fetch(`${API}/${path}${query ? `?${query}` : ''}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/x-rst; charset=utf-8' },
      body: text,
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'unreachable', 'The service cannot be reached; your text is kept in this browser.');
  }
  if (!res.ok) throw await failure(res);
  return res;
}

async function get(path: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`${API}/${path}`);
  } catch {
    throw new ApiError(0, 'unreachable', 'The service cannot be reached.');
  }
  if (!res.ok) throw await failure(res);
  return res;
}

export async function renderHtml(text: string, style: string, dialect: string, signal: AbortSignal): Promise<string> {
  return (await post('html', text, { style, dialect }, signal)).text();
}

/**
 * The rules the page reports: every rule the command line and the editors
 * report (not only the docutils ones a request that chooses none gets), but
 * the final line break: text typed in a box is not a file.
 */
const PAGE_RULES = { select: 'DEFAULT', ignore: 'missing-final-newline' } as const;

export async function check(text: string, dialect: string, signal: AbortSignal): Promise<CheckMessage[]> {
  return (await (await post('check', text, { dialect, ...PAGE_RULES }, signal)).json()) as CheckMessage[];
}

/** The document with every safe fix applied (format=json: the text, the fixes applied and the problems left). */
export async function fixSafe(text: string, dialect: string): Promise<FixResult> {
  return (await (await post('fix', text, { dialect, format: 'json', ...PAGE_RULES })).json()) as FixResult;
}

export interface Pdf {
  blob: Blob;
  filename: string;
}

export async function renderPdf(text: string, options: { class: string; style: string; toc: boolean; dialect: string }): Promise<Pdf> {
  const res = await post('pdf', text, { class: options.class, style: options.style, 'use-latex-toc': options.toc ? 'yes' : 'no', dialect: options.dialect });
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const named = /filename="([^"]+)"/.exec(disposition);
  return { blob: await res.blob(), filename: named?.[1] ?? 'document.pdf' };
}

export async function createToken(text: string): Promise<string> {
  return (await post('token', text, {})).text();
}

export async function tokenSource(token: string): Promise<string> {
  return (await get(`token/${encodeURIComponent(token)}`)).text();
}

/** A list such as <styles><style name="…"/></styles>: the names, in order. */
export async function names(path: 'html/styles' | 'pdf/styles' | 'pdf/classes'): Promise<string[]> {
  const xml = new DOMParser().parseFromString(await (await get(path)).text(), 'application/xml');
  if (xml.querySelector('parsererror')) throw new ApiError(0, 'bad_list', `The list ${path} is not well-formed XML.`);
  const item = path.endsWith('classes') ? 'class' : 'style';
  return Array.from(xml.documentElement.children)
    .filter((el) => el.localName === item)
    .map((el) => el.getAttribute('name') ?? '')
    .filter((name) => name !== '');
}
