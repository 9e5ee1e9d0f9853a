import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context, Middleware, Next } from 'koa';
import formidable from 'formidable';
import { ServiceError, ValidationError } from '../../core/index.js';
import type { MultipartSpec, UploadSpec } from './route.js';

/** The part of formidable's file record this module uses. */
interface UploadedFile {
  filepath: string;
  size: number;
}

/** Text fields of an upload are short (names, descriptions, small JSON): 64 KiB in all. */
export const MULTIPART_FIELDS_MAX_BYTES = 64 * 1024;
const MAX_TEXT_FIELDS = 20;

/** formidable's error codes (formidable/src/FormidableError.js) that this module words itself. */
const FORMIDABLE = {
  aborted: 1002,
  maxFieldsSizeExceeded: 1006,
  maxFieldsExceeded: 1007,
  biggerThanTotalMaxFileSize: 1009,
  maxFilesExceeded: 1015,
  biggerThanMaxFileSize: 1016,
} as const;

/**
 * The body parser of an upload route (`multipart/form-data`, any other type is 415). Declared
 * files stream to temporary files under `uploadDir`, never more than the route's limits
 * together: a body past them is cut off with 413 while it streams. The files are then checked
 * against their own limits and read into memory for the handler (`ctx.state.uploads`); the
 * temporary files are removed before the handler runs, whatever happened. Every refusal is a 4xx
 * naming the field; text fields (`ctx.state.body`) go on to the route's schema.
 */
export function multipartBody(spec: MultipartSpec<unknown>, uploadDir: string): Middleware {
  const declared = new Set(spec.files.map((file) => file.name));
  const total = spec.files.reduce((sum, file) => sum + file.maxBytes, 0);
  const limits = {
    maxFiles: spec.files.length,
    maxFileSize: Math.max(...spec.files.map((file) => file.maxBytes)),
    maxTotalFileSize: total,
    maxFields: MAX_TEXT_FIELDS,
    maxFieldsSize: MULTIPART_FIELDS_MAX_BYTES,
    // An empty file is the core's to refuse, with a message about what the file must be.
    allowEmptyFiles: true,
    minFileSize: 0,
  };
  return async (ctx: Context, next: Next) => {
    if (!ctx.is('multipart/form-data')) {
      throw new ServiceError('unsupported_media_type', `Send the body as multipart/form-data with ${describeParts(spec.files)}`);
    }
    await mkdir(uploadDir, { recursive: true });
    // A folder per request, removed whole at the end: formidable can still open a file after it
    // gave up on a body (a part that began as it failed), which a list of files would miss; once
    // the folder is gone such an open fails harmlessly.
    const dir = await mkdtemp(join(uploadDir, 'upload-'));
    try {
      // A parser per request, so its filter can note file parts of undeclared names: they are
      // never written (a name like __proto__ would not even show among the parsed files).
      const undeclared: string[] = [];
      const form = formidable({
        ...limits,
        multiples: true,
        uploadDir: dir,
        filter: (part) => declared.has(part.name ?? '') || (undeclared.push(String(part.name)), false),
      });
      let parsed: [Record<string, unknown[] | undefined>, Record<string, UploadedFile[] | undefined>];
      try {
        parsed = await form.parse(ctx.req);
      } catch (error) {
        throw refusal(error, spec.files, total);
      }
      if (undeclared.length > 0) throw new ValidationError(undeclared[0]!, `Unknown file field ${undeclared[0]}; this route takes ${describeParts(spec.files)}`);
      const fields = singleValues(parsed[0]);
      ctx.state.body = fields;
      ctx.state.uploads = await readUploads(singleValues(parsed[1]), fields, spec.files);
    } finally {
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    }
    await next();
  };
}

/**
 * formidable lists every part under its name; a name given once becomes its one value, a
 * repeated name stays a list (which the route's schema or `readUploads` then refuses).
 */
function singleValues<T>(parts: Record<string, T[] | undefined>): Record<string, T | T[]> {
  // fromEntries defines own properties, so a part named __proto__ stays a field, not a prototype.
  return Object.fromEntries(
    Object.entries(parts).flatMap(([name, list]) => (list === undefined ? [] : [[name, list.length === 1 ? list[0]! : list]])),
  ) as Record<string, T | T[]>;
}

/** Each declared file within its limit, in memory; 400 for repeated or missing parts. */
async function readUploads(files: Record<string, UploadedFile | UploadedFile[]>, fields: Record<string, unknown>, specs: readonly UploadSpec[]): Promise<Record<string, Uint8Array>> {
  const uploads: Record<string, Uint8Array> = {};
  for (const spec of specs) {
    if (Object.hasOwn(fields, spec.name)) throw new ValidationError(spec.name, `${spec.name} must be a file part (with a filename), not a text field`);
    const given = files[spec.name];
    if (Array.isArray(given)) throw new ValidationError(spec.name, `${spec.name} must be given once`);
    if (given === undefined) {
      if (spec.required) throw new ValidationError(spec.name, `${spec.name} is required: ${spec.description}`);
      continue;
    }
    if (given.size > spec.maxBytes) throw tooLarge(spec.name, `${spec.name} is ${given.size} bytes; the limit is ${spec.maxBytes}`);
    uploads[spec.name] = new Uint8Array(await readFile(given.filepath));
  }
  return uploads;
}

/**
 * A parser failure as the client's error: 413 for sizes, 400 for the rest of what formidable
 * refuses (its errors carry numeric codes). File-system errors pass on (503 for a full disk).
 */
function refusal(error: unknown, specs: readonly UploadSpec[], total: number): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'number') return error;
  switch (code) {
    case FORMIDABLE.biggerThanTotalMaxFileSize:
    case FORMIDABLE.biggerThanMaxFileSize:
      return tooLarge(specs[0]!.name, `The files are larger than this route takes (${total} bytes in all): ${specs.map((spec) => `${spec.name} at most ${spec.maxBytes} bytes`).join(', ')}`);
    case FORMIDABLE.maxFieldsSizeExceeded:
      return tooLarge('body', `The text fields are larger than ${MULTIPART_FIELDS_MAX_BYTES} bytes in all`);
    case FORMIDABLE.maxFilesExceeded:
      return new ValidationError('body', `Too many files; this route takes ${describeParts(specs)}`);
    case FORMIDABLE.maxFieldsExceeded:
      return new ValidationError('body', `Too many text fields; at most ${MAX_TEXT_FIELDS}`);
    case FORMIDABLE.aborted:
      return new ValidationError('body', 'The request ended before its body was complete');
    default:
      return new ValidationError('body', `The multipart body is malformed: ${(error as Error).message}`);
  }
}

function tooLarge(field: string, message: string): ServiceError {
  return new ServiceError('payload_too_large', message, { field });
}

function describeParts(specs: readonly UploadSpec[]): string {
  return specs.map((spec) => `${spec.required ? 'a' : 'an optional'} ${spec.name} part`).join(' and ');
}
