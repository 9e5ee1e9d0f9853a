import type { ReplyEvent, ServerFrame, WireError } from '../../core/index.js';
import { isServiceError, isoTime } from '../../core/index.js';
import type { UrlBuilder } from './urls.js';

/**
 * The wire form of a reply event, the same for SSE, socket.io and the plain WebSocket
 * (`core/protocol/realtime-protocol.ts`).
 */
export function toWire(event: ReplyEvent, urls: UrlBuilder): ServerFrame {
  switch (event.type) {
    case 'text-delta':
      return { type: 'message', data: { delta: event.delta, ...(event.emotion && { emotion: event.emotion }) } };
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
          ...(event.emotion && { emotion: event.emotion }),
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
      return { type: 'error', data: errorPayload(event.error) };
    case 'state':
      return { type: 'state', data: { state: event.state } };
    case 'safety':
      return {
        type: 'safety',
        data: {
          side: event.side,
          codes: event.codes,
          action: event.action,
          ...(event.topic !== undefined && { topic: event.topic }),
          ...(event.escalation && {
            escalation: {
              reason: event.escalation.reason,
              message: event.escalation.message,
              escalated_at: isoTime(event.escalation.escalatedAt),
            },
          }),
        },
      };
  }
}

/** The wire form of an error, on every transport; unexpected errors say nothing of their cause. */
export function errorPayload(error: unknown): WireError {
  if (!isServiceError(error)) return { error: { code: 'internal_error', message: 'Something went wrong on our side' } };
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.retryAfterS !== undefined && { retry_after_s: Math.max(1, Math.ceil(error.retryAfterS)) }),
    },
  };
}
