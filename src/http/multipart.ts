/**
 * multipart/form-data bodies (koa-body + formidable) as name/text pairs,
 * with uploaded files kept in memory and never written to disk.
 *
 * Why memory and not a temporary folder: the service needs each file's whole
 * text in memory right after the parse anyway, and formidable's own limit
 * (maxTotalFileSize, the body limit) bounds what it buffers, checked before
 * each chunk is kept. A file on disk would add nothing but a copy that every
 * way a request can end (a refused field, a limit hit mid-upload, a client
 * that goes away) must remember to delete; missing one fills the disk.
 */
import { Writable } from 'node:stream';

import type VolatileFile from 'formidable/VolatileFile.js';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';

import { bodyTooLarge } from './body-limit.js';
import { Code, ServiceError } from '../errors.js';

/**
 * Only `rst` may be a file; a few more let a client get the clearer
 * duplicate_parameter or unknown_parameter instead of this limit.
 */
export const MAX_MULTIPART_FILES = 4;
/** formidable's default, named here so the error can say it. */
export const MAX_MULTIPART_FIELDS = 1000;

// formidable's error codes (formidable/src/FormidableError.js); its messages
// are not meant for matching, and formidable is reached through koa-body.
const FORMIDABLE_FIELDS_TOO_LARGE = 1006;
const FORMIDABLE_TOO_MANY_FIELDS = 1007;
const FORMIDABLE_FILES_TOO_LARGE = 1009;
const FORMIDABLE_TOO_MANY_FILES = 1015;
const FORMIDABLE_FILE_TOO_LARGE = 1016;
const SIZE_ERRORS: ReadonlySet<number> = new Set([FORMIDABLE_FIELDS_TOO_LARGE, FORMIDABLE_FILES_TOO_LARGE, FORMIDABLE_FILE_TOO_LARGE]);

function badMultipart(message: string, cause: unknown, details?: Record<string, unknown>): ServiceError {
  return new ServiceError(Code.bad_multipart, message, { cause, details });
}

function translate(err: Error, maxBytes: number): ServiceError {
  const code = (err as Error & { code?: unknown }).code;
  if (typeof code === 'number' && SIZE_ERRORS.has(code)) return bodyTooLarge(maxBytes);
  // Counts, not sizes: a 413 would send the client looking for bytes to cut.
  if (code === FORMIDABLE_TOO_MANY_FILES) {
    return badMultipart(`A multipart body may carry at most ${MAX_MULTIPART_FILES} files.`, err, { maxFiles: MAX_MULTIPART_FILES });
  }
  if (code === FORMIDABLE_TOO_MANY_FIELDS) {
    return badMultipart(`A multipart body may carry at most ${MAX_MULTIPART_FIELDS} fields.`, err, { maxFields: MAX_MULTIPART_FIELDS });
  }
  return badMultipart('The multipart form data could not be parsed.', err);
}

/** Where formidable writes each uploaded file: an in-memory list of chunks per file. */
function memoryFiles(): { open: (file?: VolatileFile) => Writable; bytes: (file: object) => Buffer } {
  const contents = new Map<object | undefined, Buffer[]>();
  return {
    open(file) {
      const chunks: Buffer[] = [];
      contents.set(file, chunks);
      return new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done();
        },
      });
    },
    bytes: (file) => Buffer.concat(contents.get(file) ?? []),
  };
}

export interface MultipartBody {
  /** Form fields, already decoded by formidable. */
  fields: Array<[string, string]>;
  /** Uploaded files, as the bytes sent. */
  files: Array<[string, Buffer]>;
}

export async function readMultipart(ctx: Context, maxBytes: number): Promise<MultipartBody> {
  const files = memoryFiles();
  const parse = koaBody({
    multipart: true,
    urlencoded: false,
    json: false,
    text: false,
    patchNode: false,
    patchKoa: true,
    formidable: {
      maxFileSize: maxBytes,
      maxTotalFileSize: maxBytes,
      maxFieldsSize: maxBytes,
      maxFiles: MAX_MULTIPART_FILES,
      maxFields: MAX_MULTIPART_FIELDS,
      allowEmptyFiles: true,
      minFileSize: 0,
      fileWriteStreamHandler: files.open,
    },
    onError: (err: Error) => {
      throw translate(err, maxBytes);
    },
  });
  await parse(ctx, async () => {});
  const body: MultipartBody = { fields: [], files: [] };
  const fields = (ctx.request.body ?? {}) as Record<string, string | string[]>;
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) body.fields.push([name, v]);
  }
  const uploads = (ctx.request.files ?? {}) as Record<string, object | object[]>;
  for (const [name, value] of Object.entries(uploads)) {
    for (const file of Array.isArray(value) ? value : [value]) body.files.push([name, files.bytes(file)]);
  }
  return body;
}
