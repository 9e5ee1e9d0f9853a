/**
 * The structural subset of Ollama's `/api/chat` wire format this adapter writes and reads
 * (https://github.com/ollama/ollama/blob/main/docs/api.md). The streamed reply is NDJSON: one
 * object per line, the last with `done: true`, `done_reason` and the token counts.
 */

export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface OllamaRequestBody {
  model: string;
  messages: OllamaMessage[];
  stream: true;
  options?: { temperature?: number; num_predict?: number };
}

export interface OllamaChatChunk {
  model: string;
  message: { role?: string; content?: string; thinking?: string };
  done: boolean;
  done_reason: string;
  /** Absent when the whole prompt was served from Ollama's cache. */
  prompt_eval_count: number;
  eval_count: number;
  /** A failure inside a 200 stream, and the body of every non-2xx response: `{"error": "…"}`. */
  error: string;
}
