import type { SafetyCode, SafetySettings } from '../ports/store.js';
import type { SafetyVerdict } from '../safety/safety-check.js';
import { SAFETY_CODE_ORDER, checkReplySentence } from '../safety/safety-check.js';

/** What to do with one sentence of a reply. */
export interface SentenceOutcome {
  /** The text to show and speak in its place; undefined to drop the sentence. */
  text: string | undefined;
  /** The reply must end here (a blocked topic: the refusal is the last thing said). */
  stop: boolean;
  /** The checks that fired, when any did. */
  verdict: SafetyVerdict | undefined;
}

/**
 * Reviews a reply sentence by sentence before anything of it is shown or spoken: a blocked topic
 * ends the reply with the refusal; profanity is masked (`standard`) or the sentence dropped
 * (`strict`). Remembers what fired, for the stored message and its webhook events.
 */
export class ReplyGuard {
  readonly #settings: SafetySettings;
  readonly #codes = new Set<SafetyCode>();
  #topic: string | undefined;
  #replaced = false;

  constructor(settings: SafetySettings) {
    this.#settings = settings;
  }

  review(sentence: string): SentenceOutcome {
    const verdict = checkReplySentence(sentence, this.#settings);
    if (verdict.action === 'allow') return { text: sentence, stop: false, verdict: undefined };
    for (const code of verdict.codes) this.#codes.add(code);
    this.#topic ??= verdict.topic;
    switch (verdict.action) {
      case 'block':
        return { text: this.#settings.refusal, stop: true, verdict };
      case 'replace':
        this.#replaced = true;
        return { text: undefined, stop: false, verdict };
      default:
        return { text: verdict.masked ?? sentence, stop: false, verdict };
    }
  }

  /** The codes that fired, in the order of {@link SafetyCode}. */
  get codes(): SafetyCode[] {
    return SAFETY_CODE_ORDER.filter((code) => this.#codes.has(code));
  }

  get topic(): string | undefined {
    return this.#topic;
  }

  /** Whether a sentence was dropped at the strict level (rather than masked). */
  get replaced(): boolean {
    return this.#replaced;
  }
}

/** Speech for a masked sentence: the asterisks are left unsaid. */
export function speakable(text: string): string {
  return text.replace(/\*+/g, '').replace(/\s{2,}/g, ' ').trim();
}
