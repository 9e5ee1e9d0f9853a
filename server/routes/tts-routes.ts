import type { Context } from 'koa';
import type { AvatarService, Synthesis } from '../../core/index.js';
import { TTS_TEXT_MAX_CHARS } from '../../core/index.js';
import { s } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { ownerOf } from '../http/owner.js';
import { requestSignal } from '../http/request-signal.js';
import { ttsSynthesisSchema, voiceListSchema } from '../http/resource-schemas.js';
import type { UrlBuilder } from '../edge/urls.js';
import { speechVendors } from '../vendors.js';


const text = s.string({ min: 1, max: TTS_TEXT_MAX_CHARS, description: 'What to say', example: 'Hello! Nice to meet you.' });
const voiceId = s.string({ min: 1, max: 64, description: 'An avatar voice such as en-US-Neural2-F, or an engine voice id', example: 'en-US-Neural2-F' });

/**
 * JSON `{audio_url, …}` by default; the MP3 itself when the client asks for `audio/mpeg` (and
 * not for JSON first).
 */
function answer(ctx: Context, result: Synthesis, service: AvatarService, urls: UrlBuilder) {
  const metadata = {
    audio_url: urls.audio(result.audioKey),
    provider: result.provider,
    voice_id: result.voiceId,
    engine_voice: result.engineVoice,
    characters: result.characters,
    duration_ms: Math.round(result.durationMs),
  };
  if (ctx.accepts('application/json', 'audio/mpeg') === 'audio/mpeg') {
    ctx.set({
      'Content-Type': 'audio/mpeg',
      'Content-Location': metadata.audio_url,
      'X-Speech-Provider': result.provider,
      'X-Speech-Characters': String(result.characters),
      'X-Audio-Duration-Ms': String(Math.round(result.durationMs)),
    });
    ctx.body = Buffer.from(result.audio.buffer, result.audio.byteOffset, result.audio.byteLength);
    return undefined;
  }
  return metadata;
}

/** `/v1/tts…`: the voice catalogue, synthesis (any engine or one vendor), voice previews. */
export function ttsRoutes(service: AvatarService, urls: UrlBuilder): Route[] {
  const engines = service.speech.list().map((p) => p.id);
  const synthesizeBody = s.object({
    text,
    voice_id: s.optional(voiceId),
    provider: s.optional(s.enum(engines, `Default: ${service.speech.defaultId === 'browser' ? engines[0] : service.speech.defaultId}`)),
  });
  const vendorBody = s.object({ text, voice_id: s.optional(voiceId) });

  return [
    defineRoute({
      method: 'get',
      path: '/tts/voices',
      summary: 'Voices of every speech engine, with the engine voice each avatar voice maps to',
      tag: 'tts',
      auth: 'public',
      query: s.object({ provider: s.optional(s.enum(engines)) }),
      response: voiceListSchema.json,
      async handle({ query, service }) {
        const voices = service.tts.voices(query.provider);
        const available = Object.fromEntries(await Promise.all(service.speech.list().map(async (p) => [p.id, await p.available()] as const)));
        return {
          voices: voices.map((v) => ({
            id: v.id,
            name: v.name,
            locale: v.locale,
            gender: v.gender,
            provider: v.provider,
            engine_voice: v.engineVoice,
            available: available[v.provider] ?? false,
          })),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/tts',
      summary: 'Synthesize speech (JSON with audio_url, or MP3 with Accept: audio/mpeg)',
      tag: 'tts',
      auth: 'api_key',
      body: synthesizeBody,
      response: ttsSynthesisSchema.json,
      produces: ['audio/mpeg'],
      async handle({ body, principal, ctx, service }) {
        const result = await service.tts.synthesize(ownerOf(principal), {
          text: body.text,
          ...(body.voice_id !== undefined && { voiceId: body.voice_id }),
          ...(body.provider !== undefined && { provider: body.provider }),
          signal: requestSignal(ctx),
        });
        return answer(ctx, result, service, urls);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/tts/preview',
      summary: 'A short sample of a voice',
      tag: 'tts',
      auth: 'api_key',
      body: s.object({ voice_id: voiceId, provider: s.optional(s.enum(engines)) }),
      response: ttsSynthesisSchema.json,
      produces: ['audio/mpeg'],
      async handle({ body, principal, ctx, service }) {
        const result = await service.tts.preview(ownerOf(principal), {
          voiceId: body.voice_id,
          ...(body.provider !== undefined && { provider: body.provider }),
          signal: requestSignal(ctx),
        });
        return answer(ctx, result, service, urls);
      },
    }),
    // Each speech vendor of server/vendors.ts gets a route of its own (`POST /v1/tts/<vendor>`).
    ...speechVendors.map(({ id: vendor }) =>
      defineRoute({
        method: 'post',
        path: `/tts/${vendor}`,
        summary: `Synthesize speech with ${vendor} only (no fallback)`,
        tag: 'tts',
        auth: 'api_key',
        body: vendorBody,
        response: ttsSynthesisSchema.json,
        produces: ['audio/mpeg'],
        async handle({ body, principal, ctx, service }) {
          const result = await service.tts.synthesize(ownerOf(principal), {
            text: body.text,
            ...(body.voice_id !== undefined && { voiceId: body.voice_id }),
            provider: vendor,
            exact: true,
            signal: requestSignal(ctx),
          });
          return answer(ctx, result, service, urls);
        },
      }),
    ),
  ];
}
