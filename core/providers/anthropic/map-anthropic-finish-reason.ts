import type { FinishReason } from '../chat-model.js';

/** Anthropic's `stop_reason` in the contract's terms. */
export function mapAnthropicFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other'; // tool_use, pause_turn, and reasons added later
  }
}
