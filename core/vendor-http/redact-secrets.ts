/**
 * Vendor error bodies sometimes echo the credential (OpenAI's "Incorrect API key provided:
 * sk-abc…xyz"), and network errors may quote request details. Every text that can reach an operator
 * or a client passes through here first.
 */

/**
 * Shapes of well-known vendor keys, masked or not: OpenAI/Anthropic `sk-…` (`sk-proj-****1234`,
 * `sk-...abcd`), Google `AIza…`. A dot belongs to the key only when more key follows, so the full
 * stop ending a vendor's sentence survives.
 */
const keyShapes: readonly RegExp[] = [/\bsk-(?:[A-Za-z0-9_*-]|\.(?=[A-Za-z0-9_*.-])){6,}/g, /\bAIza[A-Za-z0-9_*-]{10,}/g];

/** Replaces each secret (exact text) and anything shaped like a vendor key with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  for (const shape of keyShapes) out = out.replace(shape, '[redacted]');
  return out;
}
