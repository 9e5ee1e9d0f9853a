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
import type { HandlerFailure, Route } from './route.js';
import { isRateLimited } from './route.js';
import { encodingFor } from './compression.js';
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
 * Builds the routing middleware from route definitions: authentication and rate limiting, a JSON
 * body parser on routes that take a body (a multipart one on upload routes, with temporary files
 * under `DATA_DIR/uploads`), schema validation of params / query / body, then the handler, whose
 * result goes through the serializer — a resource, or a {@link JsonRepresentation} already
 * serialized (sent with its ETag, or as 304 when `If-None-Match` names it). A path under `/v1`
 * called with a method its route does not take is answered 405 with `Allow`.
 *
 * Routes are grouped by their first static segment (`/v1/conversations`, `/health`), one
 * @koa/router per group, found by a map lookup: a request is matched against the few routes of
 * its group, not against all of them (bench/README.md, api-throughput: matching every route
 * cost about as much as authenticating the request).
 */
export function mountRoutes(routes: readonly MountedRoute[], { service, config, serializer, connections }: MountOptions): Middleware {
  const groups = new Map<string, Router>();
  const parseJson = jsonBody(config.bodyLimitBytes);
  for (const { prefix, route } of routes) {
    // Credentials and limits first: an unknown caller never gets its body read.
    const admit = async (ctx: Context) => {
      const principal = await authenticate(ctx, route.auth, service, config);
      if (isRateLimited(route)) await applyRateLimit(ctx, service, principal);
      ctx.state.principal = principal;
    };
    const bodySchema = route.body ?? route.multipart?.fields;
    const answer = async (ctx: Context) => {
      const principal = ctx.state.principal as Principal | undefined;
      const params = route.params ? route.params.parse(ctx.params, '') : undefined;
      const query = route.query ? route.query.parse({ ...ctx.query }, '') : undefined;
      const body = bodySchema ? bodySchema.parse(serializer.request(shallow(ctx.state.body ?? {})), '') : undefined;
      const files = (ctx.state.uploads ?? {}) as Record<string, Uint8Array>;
      // A handler the hot-read lane already ran for this request and that failed there: its error, not a second run.
      const failed = ctx.state.handlerFailure as HandlerFailure | undefined;
      if (failed?.route === route) throw failed.error;
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
        const body = serializer.successJson(result.json, ctx.state.requestId as string);
        // The same bytes for every request: compressed once, with the representation.
        const encoding = serializer.bodyIsResource ? encodingFor(ctx, result.byteLength) : undefined;
        if (encoding === undefined) ctx.body = body;
        else {
          ctx.set('Content-Encoding', encoding);
          ctx.body = await result.encoded(encoding);
        }
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
    const path = prefix + (route.path === '/' && prefix ? '' : route.path);
    const group = groupOf(path);
    if (group.includes(':')) throw new Error(`${path}: a route's first segment must be static (routes are grouped by it)`);
    let router = groups.get(group);
    if (!router) groups.set(group, (router = new Router()));
    router[route.method](path, ...middleware);
  }
  const dispatch = new Map<string, Middleware>();
  for (const [group, router] of groups) {
    const matching = router.routes() as Middleware;
    const allowedMethods = router.allowedMethods() as Middleware;
    dispatch.set(group, group.startsWith('/v1/') ? (ctx, next) => matching(ctx, () => allowedMethods(ctx, next)) : matching);
  }
  return (ctx, next) => {
    const routes = dispatch.get(groupOf(ctx.path));
    return routes ? routes(ctx, next) : next();
  };
}

/**
 * The group of a path: `/v1/` and its first segment under `/v1`, else its first segment —
 * lower-cased, as routes match regardless of case (`/V1/Conversations/x` is `/v1/conversations`).
 */
function groupOf(path: string): string {
  const start = path.startsWith('/v1/') || path.startsWith('/V1/') ? 4 : 1;
  const end = path.indexOf('/', start);
  return (end === -1 ? path : path.slice(0, end)).toLowerCase();
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
