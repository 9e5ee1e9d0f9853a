/**
 * The structural subset of OpenAI's Chat Completions wire format this adapter writes and reads
 * (https://platform.openai.com/docs/api-reference/chat). Declared here instead of importing the
 * vendor SDK; every response field is optional because vendors and compatible servers omit freely.
 */

export interface OpenAIChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface OpenAIChatRequestBody {
  model: string;
  messages: OpenAIChatMessage[];
  stream: true;
  /** Asks for one extra chunk before `[DONE]` with `usage` and an empty `choices` array. */
  stream_options?: { include_usage: true };
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
}

/** One `data:` payload of the stream (`object: "chat.completion.chunk"`). */
export interface OpenAIChatChunk {
  id: string;
  model: string;
  choices: Array<{
    index?: number;
    delta?: { role?: string; content?: string | null; refusal?: string | null };
    finish_reason?: string | null;
  }>;
  /** `null` on every chunk but the last one when `include_usage` is set. */
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  /** Some compatible servers (and OpenAI, rarely) report a failure inside a 200 stream. */
  error: OpenAIErrorObject;
}

/** `{"error": {...}}`, the body of every non-2xx response. */
export interface OpenAIErrorObject {
  message?: string;
  type?: string;
  param?: string | null;
  code?: string | null;
}
