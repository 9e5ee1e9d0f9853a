import type { Context } from 'koa';
import type { AvatarService, Principal } from '../../core/index.js';
import type { JsonSchema, Schema } from '../schema/schema.js';
import type { ServerConfig } from '../config.js';
import type { AuthRequirement } from './authenticate.js';
import type { ConnectionGate } from '../edge/connection-gate.js';


export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  /** The JSON body, or a multipart body's text fields. */
  body: B;
  /** A multipart body's files by field name, each within its limit; empty on other routes. */
  files: Readonly<Record<string, Uint8Array>>;
  /** Undefined only on public routes called without credentials. */
  principal: Principal | undefined;
  ctx: Context;
  service: AvatarService;
  config: ServerConfig;
  /** The door of long-lived connections (SSE streams). */
  connections: ConnectionGate;
}

/** One file part a multipart route takes. */
export interface UploadSpec {
  /** The form field name. */
  name: string;
  required: boolean;
  /** Larger files are refused with 413 (checked while the body streams in). */
  maxBytes: number;
  /** What the part holds, for the OpenAPI document, e.g. `model/gltf-binary`. */
  mediaType: string;
  description: string;
}

/** A `multipart/form-data` body: text fields checked by `fields` (snake_case names, like JSON bodies) and the files in `files`. */
export interface MultipartSpec<F> {
  fields: Schema<F>;
  files: readonly UploadSpec[];
}

/**
 * One HTTP operation: its schemas (which validate requests and produce the OpenAPI document)
 * and a thin handler that calls the core. A handler returns the resource to send, or
 * `undefined` when it wrote the response itself (streams, files).
 */
export interface Route<P = unknown, Q = unknown, B = unknown> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  auth: AuthRequirement;
  /** Counted against the client address's rate limit even though it needs no credentials (routes that store something). */
  limitAnonymous?: boolean;
  params?: Schema<P>;
  query?: Schema<Q>;
  body?: Schema<B>;
  /** Instead of a JSON `body`: a multipart form with files (uploads). */
  multipart?: MultipartSpec<B>;
  /** Success status; 200 unless given. */
  status?: number;
  /** Shape of the success body, for the OpenAPI document. */
  response?: JsonSchema;
  /**
   * 4XX statuses beyond those the route's shape implies (400, 401, 404, 413, 415, 429: see
   * `clientErrorsOf` in server/openapi.ts), e.g. 409 for a conversation that has ended.
   */
  errors?: readonly (403 | 409 | 416)[];
  /**
   * The handler returns a `JsonRepresentation`: the response carries its `ETag`, and a GET whose
   * `If-None-Match` names it is answered 304 (documented as such in the OpenAPI document). A
   * plain GET of such a route is answered by the hot-read lane (server/http/hot-reads.ts), which
   * calls this route's schemas and handler itself: the handler must not depend on other middleware.
   */
  conditional?: true;
  /** Other content types the route can answer with, e.g. `text/event-stream`. */
  produces?: readonly string[];
  handle(input: RouteInput<P, Q, B>): Promise<unknown>;
}

/**
 * A route's handler that already ran for this request in the hot-read lane and failed there
 * (`ctx.state.handlerFailure`): the pipeline throws its error rather than run the handler again.
 */
export interface HandlerFailure {
  route: Route;
  error: unknown;
}

/** Whether a request to the route counts against a rate limit: every authenticated route, and the anonymous ones that store something. */
export function isRateLimited(route: Route): boolean {
  return route.auth !== 'none' || route.limitAnonymous === true;
}

/** Identity function that lets TypeScript infer a route's schema types for its handler. */
export function defineRoute<P = undefined, Q = undefined, B = undefined>(route: Route<P, Q, B>): Route {
  return route as unknown as Route;
}
