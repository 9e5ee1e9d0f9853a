import type { Telemetry } from '../ports/telemetry.js';
import type { ConversationListener } from '../conversations/conversation-service.js';

/**
 * Times every conversation reply to its first audio clip, whichever door started it: a reply
 * starts with `state: thinking` and settles with `state: idle` (one reply at a time per
 * conversation). Returns the listener to register with `conversations.onEvent`.
 */
export function replyTiming(telemetry: Telemetry): ConversationListener {
  /** Replies waiting for their first clip: when each started. */
  const waiting = new Map<string, number>();
  return (conversationId, event) => {
    if (event.type === 'state') {
      if (event.state === 'thinking') waiting.set(conversationId, performance.now());
      else if (event.state === 'idle') waiting.delete(conversationId);
    } else if (event.type === 'audio') {
      const started = waiting.get(conversationId);
      if (started === undefined) return;
      waiting.delete(conversationId);
      telemetry.firstAudio((performance.now() - started) / 1000);
    } else if (event.type === 'ended') {
      waiting.delete(conversationId);
    }
  };
}
