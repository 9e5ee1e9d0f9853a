import { join } from 'node:path';
import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { AvatarService, Principal } from '../../core/index.js';
import { ServiceError, ValidationError } from '../../core/index.js';
import type { ServerConfig } from '../config.js';
import type { ConnectionGate } from '../edge/connection-gate.js';
import { authenticate } from './authenticate.js';
import { jsonBody } from './json-body.js';
import { multipartBody } from './multipart-body.js';
import { applyRateLimit } from './rate-limit.js';
import type { Route } from './route.js';
import type { Serializer } from '../edge/serializer.js';
import { JsonRepresentation } from '../edge/representation.js';

export interface MountOptions {
  service: AvatarService;
  config: ServerConfig;
  serializer: Serializer;
  connections: ConnectionGate;
}

/** A route and the path prefix it is mounted under (`/v1` or the root). */
export interface MountedRoute {
  prefix: string;
  route: Route;
}

/**
 * Builds a router from route definitions: authentication and rate limiting, a JSON body parser
 * on routes that take a body (a multipart one on upload routes, with temporary files under
 * `DATA_DIR/uploads`), schema validation of params / query / body, then the handler, whose
 * result goes through the serializer — a resource, or a {@link JsonRepresentation} already
 * serialized (sent with its ETag, or as 304 when `If-None-Match` names it).
 */
export function mountRoutes(routes: readonly MountedRoute[], { service, config, serializer, connections }: MountOptions): Router {
  // One router for every prefix: a request is matched once.
  const router = new Router();
  const parseJson = jsonBody(config.bodyLimitBytes);
  for (const { prefix, route } of routes) {
    // Credentials and limits first: an unknown caller never gets its body read.
    const admit = async (ctx: Context) => {
      const principal = await authenticate(ctx, route.auth, service, config);
      if (route.auth !== 'none' || route.limitAnonymous) await applyRateLimit(ctx, service, principal);
      ctx.state.principal = principal;
    };
    const bodySchema = route.body ?? route.multipart?.fields;
    const answer = async (ctx: Context) => {
      const principal = ctx.state.principal as Principal | undefined;
      const params = route.params ? route.params.parse(ctx.params, '') : undefined;
      const query = route.query ? route.query.parse({ ...ctx.query }, '') : undefined;
      const body = bodySchema ? bodySchema.parse(serializer.request(shallow(ctx.state.body ?? {})), '') : undefined;
      const files = (ctx.state.uploads ?? {}) as Record<string, Uint8Array>;
      const result = await route.handle({ params, query, body, files, principal, ctx, service, config, connections });
      if (result === undefined) return;
      if (result instanceof JsonRepresentation) {
        ctx.set('ETag', result.etag);
        const ifNoneMatch = ctx.get('if-none-match');
        if (ifNoneMatch && (ctx.method === 'GET' || ctx.method === 'HEAD') && result.matches(ifNoneMatch)) {
          ctx.status = 304;
          return;
        }
        ctx.status = route.status ?? 200;
        ctx.type = 'application/json';
        ctx.body = serializer.successJson(result.json, ctx.state.requestId as string);
        return;
      }
      ctx.status = route.status ?? 200;
      ctx.body = serializer.success(result, ctx.state.requestId as string);
    };
    const middleware: Middleware[] = [];
    if (route.body || route.multipart) {
      middleware.push(async (ctx: Context, next: Next) => {
        await admit(ctx);
        await next();
      });
      if (route.body) middleware.push(requireJson, decoding(parseJson));
      if (route.multipart) middleware.push(multipartBody(route.multipart, join(config.dataDir, 'uploads')));
      middleware.push(answer);
    } else {
      // No body to read in between: one middleware (the router composes a route's chain per request).
      middleware.push(async (ctx: Context) => {
        await admit(ctx);
        await answer(ctx);
      });
    }
    router[route.method](prefix + (route.path === '/' && prefix ? '' : route.path), ...middleware);
  }
  return router;
}

/**
 * A body on a JSON route must be declared as `application/json` (other `+json` types are not
 * parsed as JSON by the body parser, so they are refused rather than read as `{}`); an empty body
 * counts as `{}`.
 */
async function requireJson(ctx: Context, next: Next): Promise<void> {
  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (hasBody && !ctx.is('application/json')) {
    throw new ServiceError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json');
  }
  await next();
}

/** Nesting no request body of this API comes near; deeper bodies are refused before any recursive walk. */
const MAX_BODY_DEPTH = 32;

/** The body, once it is known to nest at most {@link MAX_BODY_DEPTH} levels (checked without recursion). */
function shallow(body: unknown): unknown {
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_BODY_DEPTH) throw new ValidationError('body', `The request body nests deeper than ${MAX_BODY_DEPTH} levels`);
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return body;
}

/**
 * The body parser, with bodies that do not decode as their `Content-Encoding` says (gzip, deflate,
 * br) refused as 400 instead of surfacing zlib's error as a 500.
 */
function decoding(parse: Middleware): Middleware {
  return async (ctx, next) => {
    try {
      await parse(ctx, async () => undefined);
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? '');
      if (code.startsWith('Z_') || code.includes('BROTLI') || /decompression failed/i.test(String((error as Error).message))) {
        throw new ValidationError('body', `The request body does not decode as Content-Encoding: ${ctx.get('content-encoding')} says`);
      }
      throw error;
    }
    await next();
  };
}
