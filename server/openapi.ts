import type { MultipartSpec, Route } from './http/route.js';
import type { JsonSchema } from './schema/schema.js';
import type { Serializer } from './edge/serializer.js';
import * as resources from './http/resource-schemas.js';
import { serverEvents, wireErrorSchema } from './http/wire-schemas.js';
import { SchemaComponents } from './schema/schema-components.js';

const security: Record<string, unknown> = {
  none: [],
  public: [],
  api_key: [{ apiKey: [] }],
  conversation: [{ apiKey: [] }, { sessionToken: [] }],
  account: [{ accountToken: [] }],
  account_or_key: [{ accountToken: [] }, { apiKey: [] }],
};

/** What each tag groups, for the reference page's sections. */
const tagDescriptions: Record<string, string> = {
  health: 'Liveness of the service.',
  meta: 'The API documents themselves.',
  avatars: 'The preset avatars and your custom ones (VRM models and previews).',
  personas: 'Persona presets an avatar can play.',
  conversations: 'Conversations with an avatar: messages, replies as JSON or a Server-Sent Events stream.',
  sessions: 'Browser session tokens scoped to one conversation, so pages never hold an API key.',
  usage: 'Metered AI tokens and speech characters; per day with conversations and limits for charts.',
  ai: 'AI providers, their models, and raw chat completions outside conversations.',
  tts: 'Speech engines, voices and synthesis outside conversations.',
  audio: 'Synthesized speech files.',
  auth: 'Account login and optional sign-up: an account token for key management and the dashboard.',
  'api-keys': 'API key management (account tokens).',
  webhooks: 'Webhooks: registration, deliveries and test events.',
};

/** The messages of the error codes a route can answer with, for the document's 4XX responses. */
const errorDescriptions: Record<string, string> = {
  '400': 'invalid_request: a parameter, query or body field breaks a rule (the message names it)',
  '401': 'unauthorized: missing, unknown, revoked or expired credential',
  '403': 'forbidden: the resource may be read but not changed (presets)',
  '404': 'not_found: no such resource for this account',
  '409': 'conflict, conversation_ended or conversation_busy',
  '413': 'payload_too_large: the body is over the limit',
  '415': 'unsupported_media_type: the body is not of the media type the operation takes',
  '416': 'range_not_satisfiable: the Range is outside the file',
  '429': 'rate_limited or too_many_connections (Retry-After says when to try again)',
  '431': 'The request headers are larger than the server accepts (any operation)',
};

/**
 * The 4XX codes a route can return, from what it declares: a request to validate (400, 413, 415),
 * credentials (401), rate limits (429), a resource id in the path (404), and the route's own
 * `errors` (conflicts, read-only presets, ranges).
 */
export function clientErrorsOf(route: Route, path: string): string[] {
  const codes = new Set<number>(route.errors ?? []);
  if (route.params || route.query || route.body || route.multipart) codes.add(400);
  if (route.auth !== 'none') codes.add(401).add(429);
  else if (route.limitAnonymous) codes.add(429);
  if (/\{\w+\}/.test(path)) codes.add(404);
  if (route.body || route.multipart) codes.add(413).add(415);
  // Any request can be refused before it reaches a route; named where nothing else is.
  if (codes.size === 0) codes.add(431);
  return [...codes].sort().map(String);
}

/** `post /v1/conversations/{id}/messages` → `postConversationsByIdMessages`: unique and stable. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/v1(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment)?.[1];
      const word = (param ?? segment).replace(/\.json$/, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase());
      return (param ? 'By' : '') + word.charAt(0).toUpperCase() + word.slice(1);
    });
  return method + (words.join('') || 'Root');
}

/**
 * A multipart body as OpenAPI 3.1 describes one: the text fields and the file parts as properties
 * of one object (files as strings with their media type), and an `encoding` that declares the
 * fields carrying JSON.
 */
function multipartContent(spec: MultipartSpec<unknown>, schema: (json: JsonSchema) => JsonSchema, name: string) {
  const fields = spec.fields.json;
  const properties: Record<string, JsonSchema> = {
    ...(fields.properties as Record<string, JsonSchema>),
    ...Object.fromEntries(
      spec.files.map((file) => [file.name, { type: 'string', contentMediaType: file.mediaType, description: `${file.description}; at most ${file.maxBytes} bytes` }]),
    ),
  };
  const required = [...((fields.required as string[] | undefined) ?? []), ...spec.files.filter((file) => file.required).map((file) => file.name)];
  const jsonFields = Object.entries(properties).filter(([, schema]) => schema.contentMediaType === 'application/json');
  return {
    schema: schema({ ...(name && { title: name }), type: 'object', properties, additionalProperties: false, ...(required.length > 0 && { required }) }),
    ...(jsonFields.length > 0 && { encoding: Object.fromEntries(jsonFields.map(([field]) => [field, { contentType: 'application/json' }])) }),
  };
}

/** `apiKeyCreatedSchema` → `ApiKeyCreated`: the resource schemas under their component names. */
function namedResources(): [string, JsonSchema][] {
  return Object.entries(resources).flatMap(([name, value]) => {
    if (!name.endsWith('Schema') || typeof value !== 'object' || value === null) return [];
    const json = ('json' in value ? value.json : value) as JsonSchema;
    return [[name.charAt(0).toUpperCase() + name.slice(1, -'Schema'.length), json]];
  });
}

/** The SSE events of a streamed reply: `event:` names and their `data:` payloads. */
function sseContent(components: SchemaComponents) {
  const events = serverEvents.filter((event) => event.sse);
  const variants = events.map((event) => ({
    type: 'object',
    description: `event: ${event.name}; data: ${event.schema.json.description ?? ''}`.trim(),
    properties: { event: { const: event.name }, data: components.ref(event.schema.json) },
    required: ['event', 'data'],
  }));
  return {
    schema: {
      description: 'A stream of Server-Sent Events, each `event: <name>` and one `data: <json>` line; ends after done or error. Each variant is one event as {event, data}.',
      oneOf: variants,
    },
    'x-events': Object.fromEntries(events.map((event) => [event.name, components.ref(event.schema.json)])),
  };
}

/**
 * The OpenAPI 3.1 document, built from the same route definitions and schemas that validate
 * requests, so the two cannot drift apart. Every resource, request body, SSE event and the error
 * body is a named component (client generators name their types after them); every operation
 * has an `operationId` ({@link operationIdOf}) and its 4XX responses ({@link clientErrorsOf}).
 */
export function buildOpenApi(
  routes: readonly { prefix: string; route: Route }[],
  info: { version: string; serverUrl: string; serializer: Serializer },
) {
  const { serializer } = info;
  const probe: JsonSchema = {};
  // The envelope style wraps (and camel-cases) resources; the flat style sends them as they are.
  const components = new SchemaComponents(serializer, { envelope: serializer.successSchema(probe) !== probe });
  for (const [name, json] of namedResources()) components.name(json, name, true);
  components.name(wireErrorSchema.json, 'WireError');
  for (const event of serverEvents) components.name(event.schema.json, `${event.name.split('.').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}Event`);
  const errorRef = components.define('Error', serializer.errorSchema);
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  const operationIds = new Set<string>();
  for (const { prefix, route } of routes) {
    const path = (prefix + route.path).replace(/:([A-Za-z]+)/g, '{$1}');
    // `/health` is served at the root and under /v1: the second gets a suffix.
    const derived = operationIdOf(route.method, path);
    const operationId = operationIds.has(derived) ? `${derived}AtRoot` : derived;
    operationIds.add(operationId);
    const pascal = operationId.charAt(0).toUpperCase() + operationId.slice(1);
    const params = (route.params?.json.properties ?? {}) as Record<string, JsonSchema>;
    const query = (route.query?.json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((route.query?.json.required as string[] | undefined) ?? []);
    const status = String(route.status ?? 200);
    tags.add(route.tag);
    const success = route.response || !route.produces ? components.success(route.response ?? { type: 'object' }) : undefined;
    (paths[path] ??= {})[route.method] = {
      operationId,
      summary: route.summary,
      tags: [route.tag],
      security: security[route.auth],
      parameters: [
        ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
          name,
          in: 'path',
          required: true,
          schema: params[name!] ?? { type: 'string' },
        })),
        ...Object.entries(query).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema })),
      ],
      ...(route.body && {
        requestBody: { required: true, content: { 'application/json': { schema: components.define(`${pascal}Body`, route.body.json) } } },
      }),
      ...(route.multipart && {
        requestBody: { required: true, content: { 'multipart/form-data': multipartContent(route.multipart, (json) => components.define(`${pascal}Form`, json), '') } },
      }),
      responses: {
        [status]: {
          description: 'Success',
          content: {
            // Routes that only send files (audio, models) declare what they produce instead.
            ...(success && { 'application/json': { schema: success } }),
            ...Object.fromEntries(
              (route.produces ?? []).map((type) => [type, type === 'text/event-stream' ? sseContent(components) : { schema: { type: 'string', format: 'binary' } }]),
            ),
          },
        },
        ...Object.fromEntries(
          clientErrorsOf(route, path).map((code) => [code, { description: errorDescriptions[code] ?? 'Client error', content: { 'application/json': { schema: errorRef } } }]),
        ),
        default: { description: 'Server error (internal_error, provider_error, unavailable)', content: { 'application/json': { schema: errorRef } } },
      },
    };
  }
  const webhookRef = components.ref(resources.webhookEventSchema);
  return {
    openapi: '3.1.0',
    info: {
      title: 'avatar-service',
      version: info.version,
      description:
        'Conversations with 3D AI avatars: REST, SSE streaming and realtime. The realtime transports (socket.io at /v1/realtime and the WebSocket at /v1/conversations/{id}/ws) are described in the AsyncAPI document at /v1/asyncapi.json.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: info.serverUrl }],
    tags: [...tags].sort().map((name) => ({ name, description: tagDescriptions[name] ?? `Operations on ${name}.` })),
    components: {
      schemas: components.schemas(),
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'svc_live_… or svc_test_…' },
        sessionToken: { type: 'http', scheme: 'bearer', description: 'sess_… browser session token, one conversation' },
        accountToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
    paths,
    webhooks: {
      event: {
        post: {
          operationId: 'receiveWebhookEvent',
          // Deliveries are authenticated by their signature header, not by a credential.
          security: [],
          summary: 'An event POSTed to a registered webhook',
          description: 'Headers: x-service-signature (lowercase hex HMAC-SHA256 of the raw body with the secret), x-service-event-id, x-service-event-type, x-service-delivery-attempt. Answer 2xx at once; anything else is retried on the schedule, 410 disables the webhook.',
          tags: ['webhooks'],
          parameters: ['x-service-signature', 'x-service-event-id', 'x-service-event-type', 'x-service-delivery-attempt'].map((name) => ({
            name,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          requestBody: { required: true, content: { 'application/json': { schema: webhookRef } } },
          responses: { '200': { description: 'Received; any 2xx will do' }, '410': { description: 'Gone: disables the webhook' } },
        },
      },
    },
  };
}
