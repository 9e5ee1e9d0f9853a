import type { ReplyEvent, ServerFrame, UrlBuilder } from '../../core/index.js';

/**
 * The wire form of a reply event, the same for SSE, socket.io and the plain WebSocket
 * (`core/protocol/realtime-protocol.ts`).
 */
export function toWire(event: ReplyEvent, urls: UrlBuilder): ServerFrame {
  switch (event.type) {
    case 'text-delta':
      return { type: 'message', data: { delta: event.delta } };
    case 'audio':
      return {
        type: 'audio',
        data: {
          url: urls.audio(event.key),
          seq: event.seq,
          text: event.text,
          duration_ms: Math.round(event.durationMs),
          ...(event.visemes && {
            visemes: event.visemes.map((v) => ({
              viseme: v.viseme,
              start_ms: Math.round(v.startMs),
              end_ms: Math.round(v.endMs),
              weight: Math.round(v.weight * 1000) / 1000,
            })),
          }),
        },
      };
    case 'done':
      return {
        type: 'done',
        data: {
          id: event.message.id,
          usage: { ai_tokens: event.message.aiTokens, tts_characters: event.message.ttsCharacters },
        },
      };
    case 'error':
      return { type: 'error', data: { error: { code: event.error.code, message: event.error.message } } };
    case 'state':
      return { type: 'state', data: { state: event.state } };
  }
}
