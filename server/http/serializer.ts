import type { ApiStyle } from '../config.js';

/**
 * The one place that decides the response style (DESIGN.md §6). Routes produce flat snake_case
 * resources; `envelope` wraps them in `{data, meta}` with camelCase names and upper-snake codes.
 */
export interface Serializer {
  success(resource: unknown, requestId: string): unknown;
  error(code: string, message: string, requestId: string): unknown;
  /** A request body in the route schemas' snake_case: envelope clients may send camelCase. */
  request(body: unknown): unknown;
}

export function createSerializer(style: ApiStyle): Serializer {
  if (style === 'flat') {
    return {
      success: (resource) => resource,
      error: (code, message) => ({ error: { code, message } }),
      request: (body) => body,
    };
  }
  return {
    success: (resource, requestId) => ({ data: camelize(resource), meta: { requestId } }),
    error: (code, message, requestId) => ({ error: { code: envelopeCode(code), message }, meta: { requestId } }),
    request: snakeize,
  };
}

function envelopeCode(code: string): string {
  return code === 'invalid_request' ? 'BAD_REQUEST' : code.toUpperCase();
}

function camelize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelize);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), camelize(v)]),
  );
}

function snakeize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeize);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeize(v)]));
}
