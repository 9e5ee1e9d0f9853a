/**
 * The structural subset of the Gemini API wire format this adapter writes and reads
 * (https://ai.google.dev/api/generate-content). With `alt=sse`, every SSE `data:` payload is one
 * complete `GenerateContentResponse`; there is no end marker: the last one carries `finishReason`.
 */

export interface GoogleContent {
  role: 'user' | 'model';
  parts: Array<{ text: string }>;
}

export interface GoogleRequestBody {
  contents: GoogleContent[];
  /** Gemini's system slot: instructions outside the turn sequence. */
  systemInstruction?: { parts: Array<{ text: string }> };
  generationConfig?: { temperature?: number; maxOutputTokens?: number };
}

export interface GoogleUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  /** Tokens a thinking model (Gemini 2.5) spent reasoning; billed as output. */
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
}

export interface GoogleStreamChunk {
  candidates: Array<{
    index?: number;
    content?: { role?: string; parts?: Array<{ text?: string; thought?: boolean }> };
    finishReason?: string;
  }>;
  /** Set (with no candidates) when the prompt itself was blocked. */
  promptFeedback: { blockReason?: string };
  usageMetadata: GoogleUsageMetadata;
  modelVersion: string;
  /** A failure reported inside a 200 stream. */
  error: GoogleErrorObject;
}

/** `{"error": {"code", "message", "status", "details"}}`: google.rpc.Status, the body of every non-2xx response. */
export interface GoogleErrorObject {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ '@type'?: string; retryDelay?: string }>;
}
