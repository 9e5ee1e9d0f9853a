import type { FinishReason } from '../chat-model.js';

/** OpenAI's `finish_reason` in the contract's terms; tool calls are not used, so they map to `other`. */
export function mapOpenAIFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other'; // tool_calls, function_call, and whatever a compatible server invents
  }
}
