import { createHmac, randomBytes } from 'node:crypto';
import * as fc from 'fast-check';

/**
 * Arbitraries and oracles for test/server/fuzz.test.ts: hostile values (wrong types, odd Unicode,
 * huge strings, deep nesting built as JSON text), request bodies derived from the OpenAPI schemas
 * the server publishes, hostile credentials, and a judge that says whether a request breaks the
 * published contract (then the server must refuse it).
 *
 * Generated values that depend on server state (ids of conversations, keys, audio files) are
 * placeholders `@@ref:<pool>:<n>@@`, resolved when a request is sent, so shrinking works on plain
 * data while the pools change as the server's data does.
 */

// ---------------------------------------------------------------------------------------------
// The OpenAPI document

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  enum?: unknown[];
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  security?: Record<string, unknown>[];
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** Who may call an operation, as the document says. */
export type Security = 'none' | 'apiKey' | 'conversation' | 'account' | 'accountOrKey';

export interface Operation {
  method: string;
  template: string;
  security: Security;
  pathParams: OpenApiParameter[];
  queryParams: OpenApiParameter[];
  body: JsonSchema | undefined;
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const schemes = (operation.security ?? []).flatMap((s) => Object.keys(s));
      const security: Security = schemes.length === 0
        ? 'none'
        : schemes.includes('accountToken')
          ? schemes.includes('apiKey') ? 'accountOrKey' : 'account'
          : schemes.includes('sessionToken') ? 'conversation' : 'apiKey';
      operations.push({
        method: method.toUpperCase(),
        template,
        security,
        pathParams: (operation.parameters ?? []).filter((p) => p.in === 'path'),
        queryParams: (operation.parameters ?? []).filter((p) => p.in === 'query'),
        body: operation.requestBody?.content['application/json']?.schema,
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// Placeholders

export type Pool = 'aConv' | 'aEnded' | 'aLive' | 'bConv' | 'deleted' | 'keyOwn' | 'keyOtherInUse' | 'keyOtherSpare' | 'audio' | 'dedicated';

export const ref = (pool: Pool, n: number) => `@@ref:${pool}:${n}@@`;
export const REF_PATTERN = /@@ref:(\w+):(\d+)@@/g;

/** What a short description of a generated value shows instead of megabytes of text. */
export function abbreviate(text: string, max = 240): string {
  const shown = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return text.length > max ? `${shown}…(${text.length} chars)` : shown;
}

/** Gives a generated object a short form in fast-check's counterexample report. */
export function describedAs<T extends object>(value: T, describe: (value: T) => string): T {
  Object.defineProperty(value, fc.toStringMethod, { value: () => describe(value), enumerable: false });
  return value;
}

// ---------------------------------------------------------------------------------------------
// Hostile values

export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', 'isPrototypeOf', '__defineGetter__', 'toJSON'] as const;

/** Lone surrogates, direction marks, NUL, emoji (also ZWJ sequences), combining marks, separators. */
export const ODD_CHARACTERS = [
  '\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\u200f', '\u200e', '\u202e', '\u2066', '\ufeff', '\u200b', '\u00a0',
  '🙂', '👩‍👩‍👧‍👦', '🏳️‍🌈', 'e\u0301', '\u0301', '\u0301\u0302\u0303', 'Z\u0364\u0351\u0313\u0324\u0354', '\u2028', '\u2029', '\r\n', '\t',
  '"', '\\', '/', '<script>', "' OR 1=1--", '%00', '${x}', '{{x}}', '\ufdfa', '\uffff', '\ufffe', '\u{10ffff}', 'ß', 'İ', 'ﬀ',
] as const;

export const oddString: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ODD_CHARACTERS) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 2, arbitrary: fc.constantFrom('a', 'b', ' ', '1') },
  ),
  minLength: 0,
  maxLength: 24,
});

export const emptyishString = fc.constantFrom('', ' ', '   ', '\t\n', '\u200b', '\u00a0', '\u3000');

export const repeatTo = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length));

/** Strings of ≥ 100 K characters, or ≥ 2 M (past the 1 MiB body limit once encoded). */
export const hugeString: fc.Arbitrary<string> = fc
  .record({
    unit: fc.constantFrom('x', 'é', '🙂', '\u0000', '\ud800', 'a\u0301', ' ', '\u202e', 'ab'),
    length: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 100_000, max: 160_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 2_000_000, max: 2_100_000 }) }),
  })
  .map(({ unit, length }) => repeatTo(unit, length));

export type DeepShape = 'array' | 'object' | 'mixed' | 'proto' | 'unclosed';

export function deepJson(depth: number, shape: DeepShape): string {
  switch (shape) {
    case 'array':
      return '['.repeat(depth) + ']'.repeat(depth);
    case 'object':
      return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    case 'mixed':
      return '[{"a":'.repeat(depth) + 'null' + '}]'.repeat(depth);
    case 'proto':
      return '{"__proto__":'.repeat(depth) + '{}' + '}'.repeat(depth);
    case 'unclosed':
      return '['.repeat(depth);
  }
}

/** 1 000 – 10 000 levels of nesting, written as JSON text (no recursion on our side). */
export const deepJsonText = (shapes: readonly DeepShape[] = ['array', 'object', 'mixed', 'proto']) =>
  fc.record({ depth: fc.integer({ min: 1_000, max: 10_000 }), shape: fc.constantFrom(...shapes) }).map(({ depth, shape }) => deepJson(depth, shape));

const json = (value: unknown) => JSON.stringify(value);

/** An object literal whose keys are prototype names (and a few ordinary ones), as JSON text. */
export const prototypeObjectText = fc
  .array(fc.tuple(fc.constantFrom(...PROTOTYPE_NAMES, 'a', 'admin', 'type'), fc.jsonValue({ maxDepth: 1 })), { minLength: 1, maxLength: 3 })
  .map((entries) => `{${entries.map(([k, v]) => `${json(k)}:${json(v)}`).join(',')}}`);

const SCALAR_FRAGMENTS = [
  'null', 'true', 'false', '0', '-1', '-0', '0.5', '1e308', '1e999', '-1e999', '9007199254740993', '1.0', '60.5', '"1"', '"true"', '""', '" "',
  '[]', '{}', '[null]', '[""]', '[{}]', '"\\u0000"', '"\\ud800"', '"\\udfff"', '"a\\ud800b"', '"\\u202e\\u200f"',
] as const;

/** Any value a field should not take (JSON text): wrong types, odd and huge strings, deep nesting. */
export const hostileFragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SCALAR_FRAGMENTS) },
  { weight: 5, arbitrary: oddString.map(json) },
  { weight: 2, arbitrary: emptyishString.map(json) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }).map(json) },
  { weight: 2, arbitrary: prototypeObjectText },
  { weight: 1, arbitrary: hugeString.map(json) },
  { weight: 1, arbitrary: deepJsonText() },
  { weight: 1, arbitrary: fc.integer({ min: 20_000, max: 60_000 }).map((n) => `[${Array.from({ length: n }, () => '0').join(',')}]`) },
);

// ---------------------------------------------------------------------------------------------
// Bodies

/** A body: fields as (key, JSON text) pairs, or raw text. */
export type BodySpec = { kind: 'fields'; fields: [string, string][] } | { kind: 'raw'; text: string };

export function bodyText(body: BodySpec): string {
  return body.kind === 'raw' ? body.text : `{${body.fields.map(([k, v]) => `${json(k)}:${v}`).join(',')}}`;
}

/** Per-field generators of good values (JSON text), by property name. */
export type Hints = Record<string, fc.Arbitrary<string>>;

/** A value the schema accepts (JSON text), preferring the hints for known field names. */
export function goodFragment(name: string, schema: JsonSchema, hints: Hints): fc.Arbitrary<string> {
  const hint = hints[name];
  if (hint) return hint;
  if (schema.enum) return fc.constantFrom(...schema.enum).map(json);
  if (schema.examples?.length) return fc.constantFrom(...schema.examples).map(json);
  switch (schema.type) {
    case 'string': {
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 64)).map(json);
      const min = schema.minLength ?? 0;
      return fc.string({ unit: 'grapheme', minLength: Math.max(min, 1), maxLength: Math.max(min, Math.min(schema.maxLength ?? 30, 30)) }).map(json);
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000 }).map(json);
    case 'number':
      return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000, noNaN: true, noDefaultInfinity: true }).map(json);
    case 'boolean':
      return fc.boolean().map(json);
    case 'array':
      return fc
        .array(goodFragment(`${name}[]`, schema.items ?? {}, hints), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)) })
        .map((items) => `[${items.join(',')}]`);
    case 'object':
      return goodFields(schema, hints).map((fields) => bodyText({ kind: 'fields', fields }));
    default:
      return fc.constant('"x"');
  }
}

/** Every required field and some optional ones, each with a good value. */
export function goodFields(schema: JsonSchema, hints: Hints): fc.Arbitrary<[string, string][]> {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {}).map(([name, child]) => {
    const value = goodFragment(name, child, hints).map((v): [string, string] => [name, v]);
    return required.has(name) ? value : fc.option(value, { nil: undefined, freq: 2 });
  });
  return fc.tuple(...entries).map((fields) => fields.filter((f): f is [string, string] => f !== undefined));
}

type Mutation =
  | { m: 'replace'; index: number; value: string }
  | { m: 'drop'; index: number }
  | { m: 'extra'; key: string; value: string }
  | { m: 'duplicate'; index: number; value: string }
  | { m: 'rename'; index: number; to: 'camel' | 'upper' | 'padded' | 'prefixed' };

const extraKey = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  { weight: 1, arbitrary: fc.constantFrom('unexpected', 'id', 'account_id', 'accountId', 'admin', 'role', 'status', '', ' ', 'a'.repeat(300)) },
  { weight: 1, arbitrary: oddString },
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ m: fc.constant('replace' as const), index: fc.nat(), value: hostileFragment }) },
  { weight: 2, arbitrary: fc.record({ m: fc.constant('drop' as const), index: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ m: fc.constant('extra' as const), key: extraKey, value: fc.oneof(fc.constantFrom('1', 'null', '{}', '"x"', '{"admin":true}'), hostileFragment) }) },
  { weight: 1, arbitrary: fc.record({ m: fc.constant('duplicate' as const), index: fc.nat(), value: hostileFragment }) },
  { weight: 1, arbitrary: fc.record({ m: fc.constant('rename' as const), index: fc.nat(), to: fc.constantFrom('camel' as const, 'upper' as const, 'padded' as const, 'prefixed' as const) }) },
);

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function applyMutations(fields: [string, string][], mutations: Mutation[]): [string, string][] {
  const out = fields.map(([k, v]): [string, string] => [k, v]);
  for (const change of mutations) {
    const i = out.length ? ('index' in change ? change.index % out.length : 0) : -1;
    switch (change.m) {
      case 'replace':
        if (i >= 0) out[i] = [out[i]![0], change.value];
        else out.push(['value', change.value]);
        break;
      case 'drop':
        if (i >= 0) out.splice(i, 1);
        break;
      case 'extra':
        out.push([change.key, change.value]);
        break;
      case 'duplicate':
        if (i >= 0) out.push([out[i]![0], change.value]);
        break;
      case 'rename':
        if (i >= 0) {
          const name = out[i]![0];
          const renamed = { camel: camel(name), upper: name.toUpperCase(), padded: ` ${name}`, prefixed: `$${name}` }[change.to];
          out[i] = [renamed, out[i]![1]];
        }
        break;
    }
  }
  return out;
}

const RAW_BODIES = [
  '', ' ', 'null', 'true', '42', '"text"', '[]', '[{}]', '{', '}', '{"a":', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":undefined}', '/* c */{}', '\ufeff{}',
  '{"a":1}garbage', '{}{}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}', '\u0000', '{"\\ud800":1}', '[1,2', '{"a":"\\x41"}', '{"a":"\\u12"}',
] as const;

/**
 * Request bodies for an operation: good ones, good ones with one to three fields attacked (wrong
 * type, dropped, extra or prototype-named fields, duplicates, renamed keys), non-objects,
 * malformed JSON, deep nesting and huge bodies.
 */
export function bodyArb(schema: JsonSchema, hints: Hints): fc.Arbitrary<BodySpec> {
  const good = goodFields(schema, hints);
  return fc.oneof(
    { weight: 6, arbitrary: good.map((fields): BodySpec => ({ kind: 'fields', fields })) },
    { weight: 10, arbitrary: fc.tuple(good, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([fields, m]): BodySpec => ({ kind: 'fields', fields: applyMutations(fields, m) })) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES).map((text): BodySpec => ({ kind: 'raw', text })) },
    { weight: 1, arbitrary: fc.tuple(good, fc.nat()).map(([fields, n]): BodySpec => {
      const text = bodyText({ kind: 'fields', fields });
      return { kind: 'raw', text: text.slice(0, n % text.length) };
    }) },
    { weight: 1, arbitrary: fc.oneof(deepJsonText(['array', 'object', 'mixed', 'proto', 'unclosed']), hostileFragment).map((text): BodySpec => ({ kind: 'raw', text })) },
    { weight: 1, arbitrary: fc.integer({ min: 3_000, max: 12_000 }).map((n): BodySpec => ({ kind: 'fields', fields: Array.from({ length: n }, (_, i): [string, string] => [`k${i}`, '0']) })) },
  );
}

// ---------------------------------------------------------------------------------------------
// Content types and other headers

/** `<none>`: the body is sent without a Content-Type header. */
export const contentTypeArb = fc.oneof(
  { weight: 16, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=latin1', 'application/json; charset=utf-16', 'application/vnd.api+json', 'application/merge-patch+json', 'application/ld+json') },
  { weight: 3, arbitrary: fc.constantFrom('<none>', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/xml', 'application/jsonx', 'json', '*/*', 'application/', 'text/json', 'text/html; charset=utf-8') },
);

export type ContentKind = 'json' | 'other' | 'ambiguous';

/** How the contract treats a Content-Type: JSON, certainly not JSON, or debatable (charsets, +json). */
export function contentKind(contentType: string | undefined): ContentKind {
  if (contentType === undefined) return 'other';
  const [type = '', ...params] = contentType.toLowerCase().split(';').map((s) => s.trim());
  if (type === 'application/json') {
    const charset = params.find((p) => p.startsWith('charset='));
    return charset === undefined || charset === 'charset=utf-8' ? 'json' : 'ambiguous';
  }
  // A +json type must be read as JSON or refused (415); reading it as no body at all is neither.
  if (/^[a-z]+\/[a-z.+-]+\+json$/.test(type)) return params.some((p) => p.startsWith('charset=') && p !== 'charset=utf-8') ? 'ambiguous' : 'json';
  return 'other';
}

// ---------------------------------------------------------------------------------------------
// The contract: what the server must refuse

export type Verdict = { kind: 'valid' } | { kind: 'invalid'; reason: string } | { kind: 'unknown' };
const VALID: Verdict = { kind: 'valid' };
const UNKNOWN: Verdict = { kind: 'unknown' };

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const codePoints = (s: string) => [...s].length;
const isWellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * Why `value` breaks `schema` (a JSON Schema as published), or undefined when it conforms. Strings
 * must also be well-formed Unicode. In the envelope style, object keys are read as the server
 * documents it: camelCase names count as their snake_case form.
 */
export function schemaViolation(schema: JsonSchema, value: unknown, path: string, style: 'flat' | 'envelope'): string | undefined {
  if (schema.anyOf) {
    const reasons = schema.anyOf.map((s) => schemaViolation(s, value, path, style));
    return reasons.every((r) => r !== undefined) ? reasons[0] : undefined;
  }
  const at = path || 'body';
  switch (schema.type) {
    case 'string': {
      if (typeof value !== 'string') return `${at} is not a string`;
      if (!isWellFormed(value)) return `${at} holds a lone surrogate`;
      const n = codePoints(value);
      if (schema.minLength !== undefined && n < schema.minLength) return `${at} is shorter than ${schema.minLength}`;
      if (schema.maxLength !== undefined && n > schema.maxLength) return `${at} is longer than ${schema.maxLength}`;
      if (schema.pattern && !new RegExp(schema.pattern).test(value)) return `${at} does not match ${schema.pattern}`;
      break;
    }
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${at} is not a finite number`;
      if (schema.type === 'integer' && !Number.isInteger(value)) return `${at} is not an integer`;
      if (schema.minimum !== undefined && value < schema.minimum) return `${at} is below ${schema.minimum}`;
      if (schema.maximum !== undefined && value > schema.maximum) return `${at} is above ${schema.maximum}`;
      break;
    case 'boolean':
      if (typeof value !== 'boolean') return `${at} is not a boolean`;
      break;
    case 'array': {
      if (!Array.isArray(value)) return `${at} is not an array`;
      if (schema.minItems !== undefined && value.length < schema.minItems) return `${at} has fewer than ${schema.minItems} items`;
      if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${at} has more than ${schema.maxItems} items`;
      for (let i = 0; i < value.length; i++) {
        const reason = schemaViolation(schema.items ?? {}, value[i], `${at}[${i}]`, style);
        if (reason) return reason;
      }
      break;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at} is not an object`;
      const record: Record<string, unknown> = Object.fromEntries(Object.entries(value).map(([k, v]) => [style === 'envelope' ? snake(k) : k, v]));
      const properties = schema.properties ?? {};
      if (schema.additionalProperties === false) {
        const unknown = Object.keys(record).find((k) => !Object.hasOwn(properties, k));
        if (unknown !== undefined) return `${path ? `${path}.` : ''}${abbreviate(unknown, 40)} is not a documented field`;
      }
      for (const name of schema.required ?? []) if (!Object.hasOwn(record, name)) return `${path ? `${path}.` : ''}${name} is required`;
      for (const [name, child] of Object.entries(properties)) {
        if (!Object.hasOwn(record, name)) continue;
        const reason = schemaViolation(child, record[name], path ? `${path}.${name}` : name, style);
        if (reason) return reason;
      }
      break;
    }
  }
  if (schema.enum && !schema.enum.includes(value)) return `${at} is not one of ${schema.enum.join(', ')}`;
  return undefined;
}

/** Whether a body must be refused under the documented contract. */
export function judgeBody(schema: JsonSchema, text: string, contentType: string | undefined, style: 'flat' | 'envelope'): Verdict {
  if (text.length > 0) {
    const kind = contentKind(contentType);
    if (kind === 'other') return { kind: 'invalid', reason: `a body sent as ${contentType ?? 'no content type'}` };
    if (kind === 'ambiguous') return UNKNOWN;
  }
  // Whitespace-only bodies and a leading byte order mark (RFC 8259 §8.1 lets parsers ignore it) are debatable.
  if ((text.length > 0 && text.trim() === '') || text.startsWith('\ufeff')) return UNKNOWN;
  let value: unknown;
  try {
    value = text.length === 0 ? {} : JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'the body is not JSON' };
  }
  const reason = schemaViolation(schema, value, '', style);
  return reason ? { kind: 'invalid', reason } : VALID;
}

/** A path parameter the document constrains (pattern, length) after the server decodes it. */
export function judgeParam(schema: JsonSchema, decoded: string | undefined, style: 'flat' | 'envelope'): Verdict {
  if (decoded === undefined) return UNKNOWN;
  const reason = schemaViolation({ ...schema, type: 'string' }, decoded, 'path parameter', style);
  return reason ? { kind: 'invalid', reason } : VALID;
}

/** Query parameters against the declared ones: unknown names, repeats and bad values must be refused. */
export function judgeQuery(params: { name: string; schema: JsonSchema }[], pairs: [string, string | undefined][], style: 'flat' | 'envelope'): Verdict {
  if (params.length === 0) return UNKNOWN;
  const seen = new Set<string>();
  let unknown = false;
  for (const [name, value] of pairs) {
    const param = params.find((p) => p.name === name);
    if (!param) return { kind: 'invalid', reason: `query parameter ${abbreviate(name, 40)} is not documented` };
    if (seen.has(name)) return { kind: 'invalid', reason: `query parameter ${name} is repeated` };
    seen.add(name);
    if (value === undefined) {
      unknown = true;
      continue;
    }
    if (param.schema.type === 'integer') {
      // Query values are text: a plain decimal is the documented form; "+5", " 5", "5.0" are debatable.
      if (/^-?\d+$/.test(value)) {
        const n = Number(value);
        if ((param.schema.minimum !== undefined && n < param.schema.minimum) || (param.schema.maximum !== undefined && n > param.schema.maximum)) {
          return { kind: 'invalid', reason: `query parameter ${name} is out of range` };
        }
      } else if (Number.isNaN(Number(value)) || value.trim() === '') return { kind: 'invalid', reason: `query parameter ${name} is not a number` };
      else unknown = true;
      continue;
    }
    const reason = schemaViolation(param.schema, value, `query parameter ${name}`, style);
    if (reason) return { kind: 'invalid', reason };
  }
  return unknown ? UNKNOWN : VALID;
}

// ---------------------------------------------------------------------------------------------
// URLs

/** Percent-encodes every byte of the UTF-8 form but unreserved characters (lone surrogates become U+FFFD). */
export function encodeSegment(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A path or query value: a pool reference, text to encode, or a raw (possibly broken) encoding. */
export type ParamSpec = { ref: Pool; n: number } | { text: string } | { raw: string };

export const RAW_SEGMENTS = [
  '%00', '%E0%A4%A', '%', '%%', '%zz', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%2E', ';x', 'a;b=c', '%20', '+', '%2B', '~', 'CON', 'null', 'undefined',
  '0', '-1', 'NaN', '%F0%9F%99%82', '%ED%A0%80', '%C0%AF', "'%20OR%201=1--", '%3Cscript%3E', '__proto__', 'constructor', 'prototype',
] as const;

export const garbageSegment: fc.Arbitrary<ParamSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((raw): ParamSpec => ({ raw })) },
  { weight: 3, arbitrary: oddString.filter((s) => s !== '' && s !== '.' && s !== '..').map((text): ParamSpec => ({ text })) },
  { weight: 1, arbitrary: fc.integer({ min: 65, max: 3_000 }).map((n): ParamSpec => ({ text: 'z'.repeat(n) })) },
  { weight: 1, arbitrary: fc.uuid().map((text): ParamSpec => ({ text })) },
  { weight: 1, arbitrary: fc.stringMatching(/^conv_[0-9a-z]{26}$/).map((text): ParamSpec => ({ text })) },
  { weight: 1, arbitrary: fc.stringMatching(/^key_[0-9a-z]{26}$/).map((text): ParamSpec => ({ text })) },
  { weight: 1, arbitrary: fc.constantFrom('CONV_ABCDEFGHIJKLMNOP', 'conv_' + 'z'.repeat(41), 'conv_0000000000000000', '00000000-0000-0000-0000-000000000000', 'key_' + 'Z'.repeat(20)).map((text): ParamSpec => ({ text })) },
);

// ---------------------------------------------------------------------------------------------
// Credentials

export const VALID_CREDENTIALS = ['A-key', 'A-live', 'B-key', 'A-jwt', 'B-jwt', 'A-session', 'A-session-other', 'B-session', 'A-key-lowercase-scheme', 'A-key-extra-spaces'] as const;
export const HOSTILE_CREDENTIALS = [
  'none', 'revoked-key', 'unknown-key', 'forged-session', 'expired-session', 'session-other-secret', 'expired-jwt', 'alg-none-jwt', 'jwt-unknown-account',
  'jwt-other-secret', 'no-scheme', 'basic', 'token-scheme', 'bearer-empty', 'two-tokens', 'long-token', 'garbage-token', 'key-wrong-mode-prefix',
] as const;
export type CredentialKind = (typeof VALID_CREDENTIALS)[number] | (typeof HOSTILE_CREDENTIALS)[number];

/** Mostly the credential an operation asks for, also the other account's, and every hostile kind. */
export function credentialArb(security: Security): fc.Arbitrary<CredentialKind> {
  const table: Record<Security, CredentialKind[]> = {
    none: ['none', 'none', 'A-key', 'B-key', 'A-session'],
    apiKey: ['A-key', 'A-key', 'A-key', 'A-live', 'B-key', 'A-key-lowercase-scheme', 'A-key-extra-spaces'],
    conversation: ['A-key', 'A-key', 'A-key', 'A-session', 'A-session', 'A-live', 'B-key', 'B-session', 'A-session-other'],
    account: ['A-jwt', 'A-jwt', 'A-jwt', 'B-jwt'],
    accountOrKey: ['A-jwt', 'A-jwt', 'A-key', 'A-key', 'A-live', 'B-jwt', 'B-key', 'A-session'],
  };
  const preferred = table[security];
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...preferred) },
    { weight: 1, arbitrary: fc.constantFrom(...VALID_CREDENTIALS) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_CREDENTIALS) },
  );
}

/** An HS256 JWT as the service signs them, with any claims. */
export function signJwt(claims: Record<string, unknown>, secret: string, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }): string {
  const head = Buffer.from(JSON.stringify(header)).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${head}.${payload}.${createHmac('sha256', secret).update(`${head}.${payload}`).digest('base64url')}`;
}

/** A session token in the service's format `sess_<claims>.<mac>`, with any claims. */
export function signSession(claims: Record<string, unknown>, secret: string): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `sess_${body}.${createHmac('sha256', secret).update(`avatar-session.${body}`).digest('base64url')}`;
}

export const randomSecret = () => randomBytes(32).toString('hex');

// ---------------------------------------------------------------------------------------------
// Error bodies

/** What is wrong with an error response body, or undefined when it has the documented shape. */
export function errorShapeViolation(contentType: string | null, text: string, style: 'flat' | 'envelope', head = false): string | undefined {
  if (!/^application\/json\b/i.test(contentType ?? '')) return `content-type ${JSON.stringify(contentType)} is not JSON`;
  if (head) return undefined;
  let body: { error?: { code?: unknown; message?: unknown }; meta?: { requestId?: unknown } };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return 'the body is not JSON';
  }
  const nonEmpty = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  if (typeof body !== 'object' || body === null || typeof body.error !== 'object' || body.error === null) return 'no error object';
  if (!nonEmpty(body.error.code)) return 'error.code is not a non-empty string';
  if (!nonEmpty(body.error.message)) return 'error.message is not a non-empty string';
  if (style === 'envelope' && !nonEmpty(body.meta?.requestId)) return 'meta.requestId is not a non-empty string';
  if (/node_modules|\/dist\/|\bat \w+ \(|Error:/.test(String(body.error.message))) return 'error.message leaks internals';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Realtime

export const goodText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('hi', 'Hello, I am Robin.', 'What time is it?', 'Tell me a joke.', 'What is 12 * 7?', 'Bonjour ! Ça va ?', 'I like 🙂 emoji', 'مرحبا بك', 'e\u0301te\u0301') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '') },
);

/** The realtime `message` data: REST's message body without `stream` (one rule for every transport). */
export const REALTIME_MESSAGE: JsonSchema = {
  type: 'object',
  properties: { content: { type: 'string', minLength: 1, maxLength: 5000 } },
  required: ['content'],
  additionalProperties: false,
};

/** Why realtime message data must be refused (also blank content, as the core refuses it), or undefined. */
export function realtimeMessageViolation(data: unknown): string | undefined {
  const reason = schemaViolation(REALTIME_MESSAGE, data, '', 'flat');
  if (reason) return reason;
  return (data as { content: string }).content.trim() === '' ? 'content is blank' : undefined;
}

/** Content that is present but not a string: an error calling it "empty" misleads. */
export const hasNonStringContent = (data: unknown) =>
  typeof data === 'object' && data !== null && !Array.isArray(data) && Object.hasOwn(data, 'content') && typeof (data as { content: unknown }).content !== 'string';

/** Content that is an empty or blank string, or absent: "must not be empty" / "is required" fit. */
export const hasBlankContent = (data: unknown) =>
  typeof data !== 'object' || data === null || Array.isArray(data) || !Object.hasOwn(data, 'content') || (typeof (data as { content: unknown }).content === 'string' && (data as { content: string }).content.trim() === '');

const contentFragment = fc.oneof(
  { weight: 6, arbitrary: goodText.map(json) },
  { weight: 4, arbitrary: hostileFragment },
  { weight: 1, arbitrary: fc.constantFrom(5000, 5001).map((n) => json('x'.repeat(n))) },
);

export const messageDataFragment: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(contentFragment, fc.option(fc.tuple(extraKey, hostileFragment), { nil: undefined, freq: 4 }))
      .map(([content, extra]) => `{"content":${content}${extra ? `,${json(extra[0])}:${extra[1]}` : ''}}`),
  },
  { weight: 2, arbitrary: hostileFragment },
  { weight: 1, arbitrary: fc.constantFrom('{}', '{"Content":"hi"}', '{"content":"hi","content":5}', '{"content":5,"content":"hi"}') },
);

const conversationIdFragment = fc.oneof(
  { weight: 8, arbitrary: fc.constant(json(ref('dedicated', 0))) },
  { weight: 1, arbitrary: fc.nat(1000).map((n) => json(ref('bConv', n))) },
  { weight: 1, arbitrary: fc.nat(1000).map((n) => json(ref('aEnded', n))) },
  { weight: 1, arbitrary: fc.nat(1000).map((n) => json(ref('aLive', n))) },
  { weight: 3, arbitrary: hostileFragment },
  { weight: 1, arbitrary: fc.constantFrom(`[${json(ref('dedicated', 0))}]`, `{"toString":${json(ref('dedicated', 0))}}`, `{"valueOf":1}`, `{"toString":null}`) },
);

/** A socket.io step: an event (name, JSON arguments, with or without an ack callback) or a raw engine.io frame. */
export type SocketIoStep = { name: string; args: string[]; ack: boolean } | { raw: string };

// The largest ack id is 2^53 - 1: beyond it socket.io's own parser turns the id into `1e+21`
// and echoes that in its ack packet, which no client can match (a library quirk, not ours).
const RAW_PACKETS = [
  '4', '42', '42[', '42{}', '42[]', '42[1]', '42[null]', '42["join"', '49', '40', '40{}', '41', '43[]', '431[{}]', '44{}', '45-["a"]', '451-["message",{"_placeholder":true,"num":0}]',
  '429007199254740991["join",{}]', '42-1["join",{}]', '42["connect"]', '42["disconnect"]', '42["newListener","x"]', '2', '3', '6', '5', '1', 'x', '', '2probe',
] as const;

export const socketIoStepArb: fc.Arbitrary<SocketIoStep> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      name: fc.constant('join'),
      args: fc.oneof(
        { weight: 8, arbitrary: conversationIdFragment.map((id) => [`{"conversation_id":${id}}`]) },
        { weight: 1, arbitrary: fc.constant([] as string[]) },
        { weight: 2, arbitrary: hostileFragment.map((f) => [f]) },
        { weight: 1, arbitrary: fc.tuple(conversationIdFragment, hostileFragment).map(([id, f]) => [`{"conversation_id":${id}}`, f]) },
      ),
      ack: fc.boolean(),
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      name: fc.constant('message'),
      args: fc.oneof(
        { weight: 8, arbitrary: messageDataFragment.map((d) => [d]) },
        { weight: 1, arbitrary: fc.constant([] as string[]) },
        { weight: 1, arbitrary: fc.tuple(messageDataFragment, hostileFragment).map(([d, f]) => [d, f]) },
      ),
      ack: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      name: fc.constant('interrupt'),
      args: fc.oneof({ weight: 6, arbitrary: fc.constant([] as string[]) }, { weight: 1, arbitrary: hostileFragment.map((f) => [f]) }),
      ack: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      name: fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, 'error', 'state', 'done', 'ping', '', 'conversation.ended', 'x'.repeat(300)), oddString),
      args: hostileFragment.map((f) => [f]),
      ack: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...RAW_PACKETS) },
      { weight: 1, arbitrary: deepJsonText().map((deep) => `42["message",${deep}]`) },
      { weight: 1, arbitrary: deepJsonText().map((deep) => `42["join",{"conversation_id":${deep}}]`) },
      { weight: 1, arbitrary: fc.integer({ min: 66_000, max: 200_000 }).map((n) => `42["message",{"content":"${'x'.repeat(n)}"}]`) },
    ).map((raw): SocketIoStep => ({ raw })),
  },
);

/** A WebSocket frame: text, binary, or a text frame that is not UTF-8. */
export type WsFrame = { text: string } | { binary: number[] } | { invalidUtf8: true };

export const wsFrameArb: fc.Arbitrary<WsFrame> = fc.oneof(
  { weight: 8, arbitrary: messageDataFragment.map((d): WsFrame => ({ text: `{"type":"message","data":${d}}` })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('{"type":"message"}', '{"type":"message","data":%D,"extra":1}', '{"data":%D,"type":"message","type":"interrupt"}', '{"type":"Message","data":%D}', '{"type":" message","data":%D}', '{"type":"message","data":%D,"__proto__":{}}'), messageDataFragment)
      .map(([template, d]): WsFrame => ({ text: template.replace('%D', d) })),
  },
  { weight: 3, arbitrary: fc.constantFrom('{"type":"interrupt"}', '{"type":"interrupt","data":{"x":1}}', '{"type":"interrupt","__proto__":{"admin":true}}').map((text): WsFrame => ({ text })) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.jsonValue({ maxDepth: 2 }).map(json),
        oddString,
        prototypeObjectText,
        fc.constantFrom('null', '"text"', '42', '[]', '{', '{"type":null}', '{"type":"nope"}', '{"type":{"$ne":1}}', '{"type":["message"]}', '{"__proto__":{"type":"message"}}', '{"constructor":{"type":"message"}}'),
        deepJsonText(['array', 'object', 'mixed', 'proto', 'unclosed']),
      )
      .map((text): WsFrame => ({ text })),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes): WsFrame => ({ binary: [...bytes] })) },
  { weight: 1, arbitrary: fc.constant<WsFrame>({ invalidUtf8: true }) },
  { weight: 1, arbitrary: fc.integer({ min: 66_000, max: 150_000 }).map((n): WsFrame => ({ text: `{"type":"message","data":{"content":"${'x'.repeat(n)}"}}` })) },
);

/** How the server must treat a WebSocket frame's text: a message, an interrupt, or an error frame. */
export function classifyFrame(text: string): 'message' | 'interrupt' | 'invalid' {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return 'invalid';
  }
  const type = typeof frame === 'object' && frame !== null && !Array.isArray(frame) ? (frame as { type?: unknown }).type : undefined;
  return type === 'message' ? 'message' : type === 'interrupt' ? 'interrupt' : 'invalid';
}
