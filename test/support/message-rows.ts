import type { MessageRecord } from '../../core/index.js';

/** A reply row as a process writing it leaves it (`streaming`, empty), as of the service's clock. */
export function streamingReply(
  service: { ids: { next(prefix: string): string }; clock: { now(): number } },
  conversationId: string,
  patch: Partial<MessageRecord> = {},
): MessageRecord {
  return {
    id: service.ids.next('msg'),
    conversationId,
    role: 'assistant',
    content: '',
    status: 'streaming',
    audioKey: null,
    audioBase: null,
    audioError: null,
    aiTokens: 0,
    ttsCharacters: 0,
    createdAt: service.clock.now(),
    safety: [],
    ...patch,
  };
}
