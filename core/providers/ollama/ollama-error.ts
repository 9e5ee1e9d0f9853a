import type { VendorErrorDetail } from '../../vendor-http/vendor-errors.js';

/** Reads Ollama's `{"error": "model 'x' not found"}`; `undefined` for any other body. */
export function parseOllamaError(body: string): VendorErrorDetail | undefined {
  const parsed = JSON.parse(body) as { error?: unknown } | null;
  return typeof parsed?.error === 'string' ? { message: parsed.error } : undefined;
}
