import type { MultipartSpec, Route } from './http/route.js';
import type { JsonSchema } from './schema/schema.js';
import type { Serializer } from './edge/serializer.js';
import { webhookEventSchema } from './http/resource-schemas.js';

const security: Record<string, unknown> = {
  none: [],
  public: [],
  api_key: [{ apiKey: [] }],
  conversation: [{ apiKey: [] }, { sessionToken: [] }],
  account: [{ accountToken: [] }],
};

/**
 * A multipart body as OpenAPI 3.1 describes one: the text fields and the file parts as properties
 * of one object (files as strings with their media type), and an `encoding` that declares the
 * fields carrying JSON.
 */
function multipartContent(spec: MultipartSpec<unknown>) {
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
    schema: { type: 'object', properties, additionalProperties: false, ...(required.length > 0 && { required }) },
    ...(jsonFields.length > 0 && { encoding: Object.fromEntries(jsonFields.map(([name]) => [name, { contentType: 'application/json' }])) }),
  };
}

/**
 * The OpenAPI 3.1 document, built from the same route definitions and schemas that validate
 * requests, so the two cannot drift apart.
 */
export function buildOpenApi(
  routes: readonly { prefix: string; route: Route }[],
  info: { version: string; serverUrl: string; serializer: Serializer },
) {
  const { serializer } = info;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { prefix, route } of routes) {
    const path = (prefix + route.path).replace(/:([A-Za-z]+)/g, '{$1}');
    const params = (route.params?.json.properties ?? {}) as Record<string, unknown>;
    const query = (route.query?.json.properties ?? {}) as Record<string, unknown>;
    const required = new Set((route.query?.json.required as string[] | undefined) ?? []);
    const status = String(route.status ?? 200);
    (paths[path] ??= {})[route.method] = {
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
        requestBody: { required: true, content: { 'application/json': { schema: route.body.json } } },
      }),
      ...(route.multipart && {
        requestBody: { required: true, content: { 'multipart/form-data': multipartContent(route.multipart) } },
      }),
      responses: {
        [status]: {
          description: 'Success',
          content: {
            // Routes that only send files (audio, models) declare what they produce instead.
            ...((route.response || !route.produces) && { 'application/json': { schema: serializer.successSchema(route.response ?? { type: 'object' }) } }),
            ...Object.fromEntries((route.produces ?? []).map((type) => [type, {}])),
          },
        },
        default: { description: 'Error', content: { 'application/json': { schema: serializer.errorSchema } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'avatar-service',
      version: info.version,
      description: 'Conversations with 3D AI avatars: REST, SSE streaming and realtime.',
    },
    servers: [{ url: info.serverUrl }],
    components: {
      schemas: { WebhookEvent: webhookEventSchema },
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
          summary: 'An event POSTed to a registered webhook',
          description: 'Headers: x-service-signature (lowercase hex HMAC-SHA256 of the raw body with the secret), x-service-event-id, x-service-event-type, x-service-delivery-attempt. Answer 2xx at once; anything else is retried on the schedule, 410 disables the webhook.',
          parameters: ['x-service-signature', 'x-service-event-id', 'x-service-event-type', 'x-service-delivery-attempt'].map((name) => ({
            name,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
          responses: { '200': { description: 'Received; any 2xx will do' }, '410': { description: 'Gone: disables the webhook' } },
        },
      },
    },
  };
}
