/**
 * The optional vendor moderation check of a user's message (OpenAI's moderation endpoint is the
 * implementation shipped, in core/providers/openai). It runs before the message reaches the AI,
 * after the word-list checks, and only adds to what they found.
 */

export interface ModerationResult {
  flagged: boolean;
  /** The vendor's names of the categories that fired, e.g. `harassment`, `self-harm/intent`. */
  categories: string[];
}

export interface ModerationCheck {
  /** Vendor name, for logs and errors. */
  readonly provider: string;
  /** Rejects (with a ProviderError) when the vendor cannot answer; callers decide what that means. */
  check(text: string, signal?: AbortSignal): Promise<ModerationResult>;
}

/**
 * Categories that mean a person may be in danger or is threatening someone: these are treated as
 * severe content (escalated to a human when escalation is on), the others as filtered content.
 */
const SEVERE_CATEGORY = /^(self-harm|sexual\/minors$|illicit\/violent$)|\/threatening$/;

export function isSevereCategory(category: string): boolean {
  return SEVERE_CATEGORY.test(category);
}
