/**
 * The structural subset of Anthropic's Messages API wire format this adapter writes and reads
 * (https://docs.anthropic.com/en/api/messages-streaming). Response fields are optional: Anthropic
 * adds event types and fields under its versioning policy, and unknown ones must be ignored.
 */

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface AnthropicRequestBody {
  model: string;
  /** Required by the Messages API. */
  max_tokens: number;
  system?: string;
  messages: AnthropicMessage[];
  stream: true;
  temperature?: number;
}

export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** The JSON `data` of one SSE event; `type` repeats the SSE event name. */
export interface AnthropicStreamEvent {
  type: string;
  /** `message_start` */
  message: { id?: string; model?: string; usage?: AnthropicUsage };
  /** `content_block_delta` (`text_delta`) and `message_delta` (`stop_reason`). */
  delta: { type?: string; text?: string; stop_reason?: string | null };
  /** `message_delta`: cumulative counts. */
  usage: AnthropicUsage;
  /** `error` */
  error: AnthropicErrorObject;
}

/** `{"type": "error", "error": {"type", "message"}}`, also the body of every non-2xx response. */
export interface AnthropicErrorObject {
  type?: string;
  message?: string;
}
