import type { ProviderError } from '../errors.js';

/**
 * The AI provider contract. Every engine — the offline `local` one and each vendor adapter —
 * implements {@link ChatModel}: one streaming call whose result is an async sequence of
 * discriminated {@link ChatStreamPart}s. Failures after the stream started arrive as an `error`
 * part, not a throw, so a consumer always learns what was produced before the failure.
 */

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * Who the avatar is, in structured form. Vendor models read the `system` text; the offline engine,
 * which cannot read prose instructions, reads this.
 */
export interface Character {
  name: string;
  description?: string;
  personality: string;
  speakingStyle: string;
  persona?: {
    id: string;
    name: string;
    vertical: string;
    description: string;
    greeting: string;
  };
}

export interface ChatRequest {
  /** System instructions: the avatar's persona plus the conversation's own system prompt. */
  system?: string;
  /** The conversation so far, oldest first, ending with the user's newest message. */
  messages: readonly ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /** Aborting stops generation; the stream then ends with `finish` reason `aborted`. */
  signal?: AbortSignal;
  character?: Character;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export type FinishReason = 'stop' | 'length' | 'content-filter' | 'aborted' | 'error' | 'other';

export type ChatStreamPart =
  | { type: 'text-delta'; delta: string }
  | {
      type: 'finish';
      finishReason: FinishReason;
      usage: TokenUsage;
      /**
       * Which provider and model produced the reply, when it may differ from the model that was
       * asked (a fallback chain answered with a later link). Absent means "the model you called".
       */
      provider?: string;
      model?: string;
    }
  | { type: 'error'; error: ProviderError };

export interface ChatModel {
  readonly provider: string;
  readonly modelId: string;
  stream(request: ChatRequest): AsyncIterable<ChatStreamPart>;
}

export interface ModelInfo {
  id: string;
  name: string;
  contextWindow: number;
  capabilities: readonly ModelCapability[];
}

export type ModelCapability = 'chat' | 'streaming' | 'system-prompt' | 'vision' | 'tools' | 'offline';

/** A registered AI provider: a vendor, a custom OpenAI-compatible server, or the offline engine. */
export interface AIProvider {
  readonly id: string;
  readonly name: string;
  /** One sentence a person reads in `/models`; the offline engine says plainly that it is not an LLM. */
  readonly description: string;
  readonly kind: 'offline' | 'vendor' | 'custom';
  /** Whether credentials / a URL are present so that calls can succeed. */
  readonly configured: boolean;
  readonly models: readonly ModelInfo[];
  /**
   * True when any model name may be asked for (Ollama: whatever the operator pulled; a custom
   * server: whatever it serves); `models` then lists the known ones only.
   */
  readonly anyModel?: boolean;
  readonly defaultModel: string;
  chatModel(modelId?: string): ChatModel;
}

export interface GeneratedText {
  text: string;
  finishReason: FinishReason;
  usage: TokenUsage;
}

/** Runs a model to completion and returns the whole text; throws the stream's error part. */
export async function generateText(model: ChatModel, request: ChatRequest): Promise<GeneratedText> {
  let text = '';
  for await (const part of model.stream(request)) {
    if (part.type === 'text-delta') text += part.delta;
    else if (part.type === 'error') throw part.error;
    else return { text, finishReason: part.finishReason, usage: part.usage };
  }
  return { text, finishReason: 'other', usage: { inputTokens: 0, outputTokens: 0 } };
}
