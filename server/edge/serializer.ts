import type { JsonSchema } from '../schema/schema.js';

/**
 * The one place that decides the response style (docs/api.md, Response styles and errors). Routes produce flat snake_case
 * resources; `envelope` wraps them in `{data, meta}` with camelCase names and upper-snake codes.
 */
export interface Serializer {
  success(resource: unknown, requestId: string): unknown;
  /**
   * The JSON of a resource as this style sends it, without what varies per response (the
   * request id): cacheable. {@link successJson} makes the body of a response from it.
   */
  resourceJson(resource: unknown): string;
  /** The JSON text of a success body from {@link resourceJson}'s output: `success` as text. */
  successJson(resourceJson: string, requestId: string): string;
  /** Whether a success body is the resource's JSON itself (flat style): the same bytes for every request. */
  readonly bodyIsResource: boolean;
  error(code: string, message: string, requestId: string): unknown;
  /** A request body in the route schemas' snake_case: envelope clients may send camelCase. */
  request(body: unknown): unknown;
  /** The JSON Schema of a success body in this style, from the route's (flat) resource schema. */
  successSchema(resource: JsonSchema): JsonSchema;
  /** The JSON Schema of an error body in this style. */
  readonly errorSchema: JsonSchema;
}

const errorFields: JsonSchema = {
  type: 'object',
  properties: { code: { type: 'string' }, message: { type: 'string' } },
  required: ['code', 'message'],
};
const meta: JsonSchema = { type: 'object', properties: { requestId: { type: 'string' } }, required: ['requestId'] };

/** `flat` (the specification's snake_case resources) or `envelope` (`{data, meta}`, camelCase). */
export type ApiStyle = 'flat' | 'envelope';

export function createSerializer(style: ApiStyle): Serializer {
  if (style === 'flat') {
    return {
      success: (resource) => resource,
      resourceJson: (resource) => JSON.stringify(resource),
      successJson: (resourceJson) => resourceJson,
      bodyIsResource: true,
      error: (code, message) => ({ error: { code, message } }),
      request: (body) => body,
      successSchema: (resource) => resource,
      errorSchema: { type: 'object', properties: { error: errorFields }, required: ['error'] },
    };
  }
  return {
    success: (resource, requestId) => ({ data: camelize(resource), meta: { requestId } }),
    resourceJson: (resource) => JSON.stringify(camelize(resource)),
    successJson: (resourceJson, requestId) => `{"data":${resourceJson},"meta":${JSON.stringify({ requestId })}}`,
    bodyIsResource: false,
    error: (code, message, requestId) => ({ error: { code: envelopeCode(code), message }, meta: { requestId } }),
    request: snakeize,
    successSchema: (resource) => ({ type: 'object', properties: { data: camelizeSchema(resource), meta }, required: ['data', 'meta'] }),
    errorSchema: { type: 'object', properties: { error: errorFields, meta }, required: ['error', 'meta'] },
  };
}

function envelopeCode(code: string): string {
  return code === 'invalid_request' ? 'BAD_REQUEST' : code.toUpperCase();
}

function camelize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelize);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [camelName(k), camelize(v)]),
  );
}

const camelName = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A flat resource schema with its property names camel-cased, as `camelize` does to bodies. */
function camelizeSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties as Record<string, JsonSchema>).map(([k, v]) => [camelName(k), camelizeSchema(v)]));
  }
  if (Array.isArray(schema.required)) out.required = (schema.required as string[]).map(camelName);
  if (schema.items) out.items = camelizeSchema(schema.items as JsonSchema);
  if (Array.isArray(schema.anyOf)) out.anyOf = (schema.anyOf as JsonSchema[]).map(camelizeSchema);
  return out;
}

function snakeize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeize);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeize(v)]));
}
