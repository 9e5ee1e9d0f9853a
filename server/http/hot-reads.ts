import type { Context, Middleware } from 'koa';
import type { AvatarService, Principal, RateDecision } from '../../core/index.js';
import type { ServerConfig } from '../config.js';
import { countRequest } from '../edge/rate-decision.js';
import type { JsonRepresentation } from '../edge/representation.js';
import type { Serializer } from '../edge/serializer.js';
import { authenticate } from './authenticate.js';
import { encodingFor } from './compression.js';
import { corsHeaders } from './cors.js';
import type { MountedRoute } from './mount-routes.js';
import { rateLimitHeaders } from './rate-limit.js';
import type { Route } from './route.js';
import { isRateLimited } from './route.js';
import { SECURITY_HEADERS } from './security-headers.js';

export interface HotReadOptions {
  service: AvatarService;
  config: ServerConfig;
  serializer: Serializer;
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
 * The hot-read lane: a GET whose answer is already in memory — a route's {@link Route.peek}
 * finds a current cached representation for the caller — is answered here, in one write, without
 * the rest of the middleware (router, error handler, header middleware, Koa's response
 * handling). Measured in bench/README.md (api-throughput): that stack cost about as much again
 * as the whole cached answer.
 *
 * The lane takes the same decisions as the pipeline, made by the same functions: the route's
 * params schema, {@link authenticate} with the route's requirement (revocation, origins, session
 * scope), the one rate decision (`countRequest`), and the same headers (request id, security,
 * CORS, `Vary`, `X-RateLimit-*`, `ETag`, compression by the representation). Anything else —
 * HEAD, `If-None-Match`, a credential refused, a cache miss, a refused rate decision, an error —
 * goes down the pipeline, which answers it in full. Nothing is decided twice: the request is
 * counted only once the lane will answer it, or its refused decision is handed on
 * (`ctx.state.rateDecision`). Only where a success body is the resource itself (the flat style);
 * envelope bodies carry the request id and always take the pipeline.
 *
 * Mounted inside the request observer, so lane answers are counted and logged like the others.
 */
export function hotReads(routes: readonly MountedRoute[], { service, config, serializer }: HotReadOptions): Middleware | undefined {
  if (!serializer.bodyIsResource) return undefined;
  const hot: HotRoute[] = routes
    .filter(({ route }) => route.method === 'get' && route.peek !== undefined)
    .map(({ prefix, route }) => {
      const template = prefix + route.path;
      const segments = template.split('/');
      const pattern = segments.map((segment) => (segment.startsWith(':') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
      return { route, template, pattern: new RegExp(`^${pattern}$`, 'i'), names: segments.filter((segment) => segment.startsWith(':')).map((segment) => segment.slice(1)) };
    });
  if (hot.length === 0) return undefined;

  const prepare = async (ctx: Context, { route }: HotRoute, raw: Record<string, string>) => {
    const params = route.params ? route.params.parse(raw, '') : undefined;
    ctx.params = raw; // as the router sets them: a `conversation` route's credential is checked against `:id`
    const principal: Principal | undefined = await authenticate(ctx, route.auth, service, config);
    const representation = route.peek!({ params, principal });
    if (representation === undefined) return undefined;
    if (!isRateLimited(route)) return { representation, decision: undefined };
    const decision = await countRequest(service, principal ?? { address: ctx.ip });
    if (!decision.allowed) {
      ctx.state.rateDecision = decision;
      return undefined;
    }
    return { representation, decision };
  };

  return async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.get('if-none-match') !== '') return next();
    const found = match(hot, ctx.path);
    if (found === undefined) return next();
    // A refusal or a failure here is the pipeline's to answer (it decides again, the same way).
    const prepared = await prepare(ctx, found.hot, found.params).catch(() => undefined);
    if (prepared === undefined) return next();
    send(ctx, found.hot, prepared.representation, prepared.decision, service.ids.next('req'));
  };
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
function send(ctx: Context, { template }: HotRoute, representation: JsonRepresentation, decision: RateDecision | undefined, requestId: string): void {
  const origin = ctx.get('origin');
  const encoding = encodingFor(ctx, Buffer.byteLength(representation.json));
  const body = encoding === undefined ? representation.json : representation.encoded(encoding);
  const headers: string[] = ['Vary', origin ? 'Accept-Encoding, Origin' : 'Accept-Encoding', 'X-Request-Id', requestId];
  const add = (record: Record<string, string>) => {
    for (const name in record) headers.push(name, record[name]!);
  };
  add(SECURITY_HEADERS);
  if (origin) add(corsHeaders(origin));
  if (decision !== undefined) add(rateLimitHeaders(decision));
  headers.push('ETag', representation.etag, 'Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(body)));
  if (encoding !== undefined) headers.push('Content-Encoding', encoding);
  // What the request observer reads: the route label, the status and the request id of the log line.
  (ctx as { _matchedRoute?: string })._matchedRoute = template;
  ctx.state.requestId = requestId;
  ctx.status = 200;
  ctx.respond = false;
  ctx.res.writeHead(200, headers);
  ctx.res.end(body);
}
