import type { ReplyEvent, UrlBuilder, VisemeCue } from '../../core/index.js';

/**
 * The wire form of reply events, shared by SSE, socket.io and the plain WebSocket so every
 * transport carries the same payloads. `state` events are for realtime transports.
 */
export type WireReplyEvent =
  | { name: 'message'; data: { delta: string } }
  | { name: 'audio'; data: { url: string; seq: number; text: string; duration_ms: number; visemes?: WireViseme[] } }
  | { name: 'done'; data: { id: string; usage: { ai_tokens: number; tts_characters: number } } }
  | { name: 'error'; data: { error: { code: string; message: string } } }
  | { name: 'state'; data: { state: 'idle' | 'thinking' | 'talking' } };

export interface WireViseme {
  viseme: VisemeCue['viseme'];
  start_ms: number;
  end_ms: number;
  weight: number;
}

export function toWire(event: ReplyEvent, urls: UrlBuilder): WireReplyEvent {
  switch (event.type) {
    case 'text-delta':
      return { name: 'message', data: { delta: event.delta } };
    case 'audio':
      return {
        name: 'audio',
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
        name: 'done',
        data: {
          id: event.message.id,
          usage: { ai_tokens: event.message.aiTokens, tts_characters: event.message.ttsCharacters },
        },
      };
    case 'error':
      return { name: 'error', data: { error: { code: event.error.code, message: event.error.message } } };
    case 'state':
      return { name: 'state', data: { state: event.state } };
  }
}
