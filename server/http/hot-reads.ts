import type { Context, Middleware, Next } from 'koa';
import type { AvatarService, Principal, RateDecision } from '../../core/index.js';
import type { ServerConfig } from '../config.js';
import { countRequest } from '../edge/rate-decision.js';
import { JsonRepresentation } from '../edge/representation.js';
import type { JsonEncoding } from '../edge/representation.js';
import type { ConnectionGate } from '../edge/connection-gate.js';
import type { Serializer } from '../edge/serializer.js';
import { authenticate } from './authenticate.js';
import { encodingFor } from './compression.js';
import { corsHeaders } from './cors.js';
import type { MountedRoute } from './mount-routes.js';
import { rateLimitHeaders } from './rate-limit.js';
import type { HandlerFailure, Route } from './route.js';
import { isRateLimited } from './route.js';
import { SECURITY_HEADERS } from './security-headers.js';

export interface HotReadOptions {
  service: AvatarService;
  config: ServerConfig;
  serializer: Serializer;
  connections: ConnectionGate;
}

interface HotRoute {
  route: Route;
  /** The full path template, e.g. `/v1/conversations/:id`: the route label of metrics and logs. */
  template: string;
  /** The template as a pattern: static segments regardless of case (as the router matches), a parameter one segment. */
  pattern: RegExp;
  /** The parameters' names, in the order of the pattern's groups. */
  names: readonly string[];
}

/**
 * The hot-read lane: a GET of a conditional route (`conditional: true`, whose handler returns a
 * {@link JsonRepresentation}: a conversation, a page of its messages) is answered here, in one
 * write, without the rest of the middleware — the router, the error handler, the header
 * middleware and Koa's response handling, which together cost about as much as the whole
 * answer of a cached read (bench/README.md, api-throughput).
 *
 * The lane takes the same decisions as the pipeline, made by the same functions, in the same
 * order: {@link authenticate} with the route's requirement (revocation, origins, session scope),
 * the one rate decision (`countRequest`), the route's params and query schemas, the route's own
 * handler (its cache, its owner checks), and the same headers (request id, security, CORS,
 * `Vary`, `X-RateLimit-*`, `ETag`, the representation compressed once). Whatever is not a plain
 * 200 — HEAD, `If-None-Match`, a refused credential, a refused rate decision, invalid input, an
 * error of the handler (404…) — goes down the pipeline, which answers it in full; a rate
 * decision already made goes with it (`ctx.state.rateDecision`), so no request is counted twice,
 * and so does a failure of the handler (`ctx.state.handlerFailure`), so no read is made twice:
 * the pipeline answers the failure without running the handler again. Only where a
 * success body is the resource itself (the flat style): envelope bodies carry the request id.
 *
 * Mounted inside the request observer, so lane answers are counted and logged like the others.
 */
export function hotReads(routes: readonly MountedRoute[], { service, config, serializer, connections }: HotReadOptions): Middleware | undefined {
  if (!serializer.bodyIsResource) return undefined;
  const hot: HotRoute[] = routes
    .filter(({ route }) => route.method === 'get' && route.conditional === true && !route.body && !route.multipart)
    .map(({ prefix, route }) => {
      const template = prefix + route.path;
      const segments = template.split('/');
      const pattern = segments.map((segment) => (segment.startsWith(':') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
      return { route, template, pattern: new RegExp(`^${pattern}$`, 'i'), names: segments.filter((segment) => segment.startsWith(':')).map((segment) => segment.slice(1)) };
    });
  if (hot.length === 0) return undefined;

  return async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.get('if-none-match') !== '') return next();
    const found = match(hot, ctx.path);
    if (found === undefined) return next();
    const { route } = found.hot;
    let principal: Principal | undefined;
    let decision: RateDecision | undefined;
    try {
      ctx.params = found.params; // as the router sets them: a `conversation` route's credential is checked against `:id`
      principal = await authenticate(ctx, route.auth, service, config);
      if (isRateLimited(route)) decision = await countRequest(service, principal ?? { address: ctx.ip });
    } catch {
      return next(); // refused or failed before anything was counted: the pipeline decides again
    }
    if (decision !== undefined && !decision.allowed) return handOn(ctx, next, decision);
    let params: unknown;
    let query: unknown;
    try {
      params = route.params ? route.params.parse(found.params, '') : undefined;
      query = route.query ? route.query.parse({ ...ctx.query }, '') : undefined;
    } catch {
      return handOn(ctx, next, decision); // the pipeline refuses the same input with the same error
    }
    let result: unknown;
    try {
      result = await route.handle({ params, query, body: undefined, files: {}, principal, ctx, service, config, connections });
    } catch (error) {
      // The handler ran once: the pipeline answers its failure (404…) instead of running it again.
      ctx.state.handlerFailure = { route, error } satisfies HandlerFailure;
      return handOn(ctx, next, decision);
    }
    if (!(result instanceof JsonRepresentation)) return handOn(ctx, next, decision);
    let body: string | Buffer = result.json;
    let bytes = result.byteLength;
    const encoding = encodingFor(ctx, bytes);
    if (encoding !== undefined) {
      try {
        body = await result.encoded(encoding);
        bytes = body.length;
      } catch {
        return handOn(ctx, next, decision);
      }
    }
    send(ctx, found.hot, result, { body, bytes, encoding }, decision, service.ids.next('req'));
  };
}

/** Down the pipeline, with the rate decision already made for this request. */
function handOn(ctx: Context, next: Next, decision: RateDecision | undefined): Promise<unknown> {
  if (decision !== undefined) ctx.state.rateDecision = decision;
  return next();
}

/** The hot route a path is, and its raw params (percent-decoded); undefined when none. */
function match(hot: readonly HotRoute[], path: string): { hot: HotRoute; params: Record<string, string> } | undefined {
  for (const candidate of hot) {
    const found = candidate.pattern.exec(path);
    if (found === null) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < candidate.names.length; i++) {
      const value = decode(found[i + 1]!);
      if (value === undefined) return undefined;
      params[candidate.names[i]!] = value;
    }
    return { hot: candidate, params };
  }
  return undefined;
}

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** Writes the answer in one go: the headers the pipeline would set, as one list. */
function send(
  ctx: Context,
  { template }: HotRoute,
  representation: JsonRepresentation,
  { body, bytes, encoding }: { body: string | Buffer; bytes: number; encoding: JsonEncoding | undefined },
  decision: RateDecision | undefined,
  requestId: string,
): void {
  const origin = ctx.get('origin');
  const headers: string[] = ['Vary', origin ? 'Accept-Encoding, Origin' : 'Accept-Encoding', 'X-Request-Id', requestId];
  const add = (record: Record<string, string>) => {
    for (const name in record) headers.push(name, record[name]!);
  };
  add(SECURITY_HEADERS);
  if (origin) add(corsHeaders(origin));
  if (decision !== undefined) add(rateLimitHeaders(decision));
  headers.push('ETag', representation.etag, 'Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(bytes));
  if (encoding !== undefined) headers.push('Content-Encoding', encoding);
  // What the request observer reads: the route label, the status and the request id of the log line.
  (ctx as { _matchedRoute?: string })._matchedRoute = template;
  ctx.state.requestId = requestId;
  ctx.status = 200;
  ctx.respond = false;
  ctx.res.writeHead(200, headers);
  ctx.res.end(body);
}
