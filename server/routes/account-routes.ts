import type { Principal } from '../../core/index.js';
import { ServiceError, UnauthorizedError } from '../../core/index.js';
import { s } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { presentApiKey } from '../edge/present.js';
import { apiKeyCreatedSchema, apiKeyListSchema, authConfigSchema, deletedSchema, loginSchema } from '../http/resource-schemas.js';

const keyId = (description?: string) =>
  s.string({ pattern: /^key_[0-9a-z]{16,40}$/, patternHint: 'be an API key id (key_…)', ...(description && { description }) });

function accountOf(principal: Principal | undefined): string {
  if (principal?.type === 'account') return principal.accountId;
  throw new UnauthorizedError('This route needs an account token (JWT)');
}

/** Sign-in, optional sign-up, and API key management (account tokens, not API keys). */
export function accountRoutes(): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/login',
      summary: 'Exchange e-mail and password for a one-hour account token',
      tag: 'auth',
      auth: 'none',
      response: loginSchema.json,
      body: s.object({ email: s.string({ min: 3, max: 320 }), password: s.string({ min: 1, max: 1024 }) }),
      async handle({ body, ctx, service }) {
        await service.limits.loginAttempt({ email: body.email, address: ctx.ip });
        const { token, expiresAt } = await service.accounts.login(body.email, body.password);
        return { token, expires_at: new Date(expiresAt).toISOString() };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/signup',
      summary: 'Create a free account and get its first account token (only with ALLOW_SIGNUP=true; 404 otherwise)',
      tag: 'auth',
      auth: 'none',
      status: 201,
      response: loginSchema.json,
      body: s.object({
        email: s.string({ min: 3, max: 320 }),
        password: s.string({ min: 1, max: 1024, description: 'At least 8 characters (the rule of `avatar-service account create`)' }),
        name: s.optional(s.string({ min: 1, max: 200, description: 'Accepted for the sign-up form; not stored (accounts have no name yet)' })),
      }),
      async handle({ body, ctx, service, config }) {
        if (!config.allowSignup) throw new ServiceError('not_found', 'Sign-up is turned off on this server (ALLOW_SIGNUP is not true)');
        // A sign-up counts as a sign-in attempt: the same limits per e-mail address and per client address.
        await service.limits.loginAttempt({ email: body.email, address: ctx.ip });
        const { token, expiresAt } = await service.accounts.signUp(body.email, body.password);
        return { token, expires_at: new Date(expiresAt).toISOString() };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/config',
      summary: 'What the sign-in page offers: whether self-service sign-up is on',
      tag: 'auth',
      auth: 'none',
      response: authConfigSchema.json,
      async handle({ config }) {
        return { signup: config.allowSignup };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api-keys',
      summary: "List the account's API keys (values are never shown again)",
      tag: 'api-keys',
      auth: 'account',
      response: apiKeyListSchema.json,
      query: s.object({
        limit: s.optional(s.integer({ min: 1, max: 100, text: true, description: 'Keys per page, 1 to 100; default 100' })),
        starting_after: s.optional(keyId('Cursor: the last id of the previous page')),
      }),
      async handle({ query, principal, service }) {
        const { keys, hasMore } = await service.accounts.pageApiKeys(accountOf(principal), {
          limit: query.limit ?? 100,
          ...(query.starting_after !== undefined && { startingAfter: query.starting_after }),
        });
        return { api_keys: keys.map(presentApiKey), has_more: hasMore };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api-keys',
      summary: 'Create an API key; its value is in this response only',
      tag: 'api-keys',
      auth: 'account',
      status: 201,
      response: apiKeyCreatedSchema.json,
      body: s.object({
        name: s.string({ min: 1, max: 200, description: 'What the key is for, e.g. "website widget"' }),
        mode: s.optional(s.enum(['live', 'test'] as const, 'Default: test')),
        allowed_origins: s.optional(
          s.array(s.string({ min: 1, max: 200 }), { max: 50, description: 'Browser origins allowed to use the key, e.g. https://shop.example.com; omit for any' }),
        ),
      }),
      async handle({ body, principal, service }) {
        const { record, key } = await service.accounts.createApiKey(accountOf(principal), {
          name: body.name,
          mode: body.mode ?? 'test',
          ...(body.allowed_origins !== undefined && { allowedOrigins: body.allowed_origins }),
        });
        return { ...presentApiKey(record), key };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api-keys/:keyId',
      summary: 'Revoke an API key',
      tag: 'api-keys',
      auth: 'account',
      response: deletedSchema.json,
      params: s.object({ keyId: keyId() }),
      async handle({ params, principal, service }) {
        await service.accounts.revokeApiKey(accountOf(principal), params.keyId);
        return { deleted: true };
      },
    }),
  ];
}
