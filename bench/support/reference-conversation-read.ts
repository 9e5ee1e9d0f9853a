/**
 * The hand-written reference of authenticated `GET /v1/conversations/:id` for bench/api-throughput:
 * the shortest correct code for that route on the project's stack (Koa + @koa/router +
 * better-sqlite3), reading the app's own database file. Prepared statements return arrays, the
 * key is found by its SHA-256 like the app does, the conversation is read only for its owner
 * (account and mode), and the body is built straight into the app's wire shape (flat style), so
 * the benchmark can check it is byte for byte the app's. No caches, no rate limiter, no request
 * ids, no CORS: what is left is the work the route cannot avoid, the yardstick the app is measured
 * against. It does not record the key's last use (the app writes that at most once a minute).
 */
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import { DEFAULT_SAFETY } from '../../core/index.js';
import type { SafetySettings } from '../../core/index.js';

export interface ReferenceSettings {
  /** The app's SQLite file (opened read-only: the app is the writer). */
  filename: string;
  /** The app's public URL: audio URLs are built from it. */
  publicUrl: string;
  /** Headers the app sets on every response that the reference copies verbatim (request id, rate limit). */
  headers: Record<string, string>;
}

const KEY_SHAPE = /^svc_(live|test)_[0-9A-Za-z]{32,64}$/;
const CONVERSATION_ID = /^(conv_[0-9a-z]{16,40}|[0-9a-f-]{36})$/;

export async function createReferenceApp(settings: ReferenceSettings): Promise<Koa> {
  const { default: BetterSqlite3 } = await import('better-sqlite3');
  const db = new BetterSqlite3(settings.filename, { readonly: true });
  const keyByHash = db.prepare('select account_id, mode, revoked_at, allowed_origins from api_keys where hash = ?').raw(true);
  const conversationOf = db
    .prepare(
      `select id, avatar_id, status, created_at, persona_id, ai_provider, ai_model, tts_provider, voice_id, safety,
              updated_at, ended_at, end_reason, escalated_at, escalation_reason, ai_tokens, tts_characters
       from conversations where id = ? and account_id = ? and mode = ?`,
    )
    .raw(true);
  const messagesOf = db
    .prepare(
      `select id, role, content, audio_key, audio_error, status, created_at, safety, ai_tokens, tts_characters
       from messages where conversation_id = ? and status != 'streaming' order by seq`,
    )
    .raw(true);
  const iso = (ms: number) => new Date(ms).toISOString();
  const fail = (ctx: Koa.Context, status: number, code: string, message: string) => {
    ctx.status = status;
    ctx.body = { error: { code, message } };
  };

  const router = new Router();
  router.get('/v1/conversations/:id', (ctx) => {
    const match = /^Bearer (\S+)$/.exec(ctx.get('authorization'));
    const value = match?.[1] ?? '';
    if (!KEY_SHAPE.test(value)) return fail(ctx, 401, 'unauthorized', 'Missing or malformed API key');
    const key = keyByHash.get(createHash('sha256').update(value).digest('hex')) as [string, string, number | null, string | null] | undefined;
    if (!key || !value.startsWith(`svc_${key[1]}_`)) return fail(ctx, 401, 'unauthorized', 'Unknown API key');
    if (key[2] !== null) return fail(ctx, 401, 'unauthorized', 'This API key has been revoked');
    const origin = ctx.get('origin');
    if (key[3] !== null && origin && !(JSON.parse(key[3]) as string[]).includes(origin)) return fail(ctx, 401, 'unauthorized', 'Origin not allowed');
    const id = ctx.params.id!;
    if (!CONVERSATION_ID.test(id)) return fail(ctx, 400, 'invalid_request', 'id must be a conversation id');
    const c = conversationOf.get(id, key[0], key[1]) as unknown[] | undefined;
    if (!c) return fail(ctx, 404, 'not_found', `conversation ${id} not found`);
    const safety = c[9] === null ? DEFAULT_SAFETY : (JSON.parse(c[9] as string) as SafetySettings);
    const messages = (messagesOf.all(id) as unknown[][]).map((m) => ({
      id: m[0],
      role: m[1],
      content: m[2],
      ...(m[1] === 'assistant' && {
        audio_url: m[3] === null ? null : `${settings.publicUrl}/v1/audio/${m[3] as string}`,
        ...(m[4] !== null && { audio_error: m[4] }),
        status: m[5],
      }),
      created_at: iso(m[6] as number),
      safety: m[7] === null ? [] : JSON.parse(m[7] as string),
      usage: { ai_tokens: m[8], tts_characters: m[9] },
    }));
    ctx.set(settings.headers);
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({
      id: c[0],
      avatar_id: c[1],
      status: c[2],
      created_at: iso(c[3] as number),
      persona_id: c[4],
      config: { ai_provider: c[5], ai_model: c[6], tts_provider: c[7], voice_id: c[8] },
      safety: {
        blocked_topics: safety.blockedTopics.map((topic) => ({ name: topic.name, keywords: topic.keywords })),
        filter: safety.filter,
        escalation: { enabled: safety.escalation.enabled, message: safety.escalation.message },
        refusal: safety.refusal,
      },
      updated_at: iso(c[10] as number),
      ended_at: c[11] === null ? null : iso(c[11] as number),
      ...(c[12] !== null && { end_reason: c[12] }),
      escalated_at: c[13] === null ? null : iso(c[13] as number),
      ...(c[14] !== null && { escalation_reason: c[14] }),
      messages,
      usage: { ai_tokens: c[15], tts_characters: c[16] },
    });
  });
  const app = new Koa();
  app.use(router.routes());
  return app;
}
