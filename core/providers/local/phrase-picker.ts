/**
 * Deterministic variety. Every intent has several phrasings; the picker chooses among them with a
 * pseudo-random sequence seeded from the conversation itself, so the same conversation always gets
 * the same reply (stable tests) while a question asked twice gets different wording: phrasings
 * the engine already said earlier in the conversation are skipped while fresh ones remain.
 */
export interface PhrasePicker {
  /** One of `options`, preferring those not said earlier in the conversation. */
  pick(options: readonly string[]): string;
  /** True with probability `p` (0…1), for optional touches such as using the user's name. */
  chance(p: number): boolean;
}

export interface PhrasePickerOptions {
  /** Seed of the sequence; derive it from the conversation with {@link hashString}. */
  seed: number;
  /** What the assistant said earlier in this conversation, to avoid repeating it. */
  alreadySaid?: readonly string[];
  /** With `true` the picker takes the first fresh option instead of a random one (temperature 0). */
  greedy?: boolean;
}

/** 32-bit FNV-1a hash, chained through `seed` so several strings can be folded into one value. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Mulberry32: a tiny, well-distributed PRNG; returns numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function comparable(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9 ]/g, '').replace(/\s+/g, ' ').trim();
}

/** Creates a picker; it holds its own sequence state, nothing is shared between requests. */
export function createPhrasePicker(options: PhrasePickerOptions): PhrasePicker {
  const random = mulberry32(options.seed);
  const said = (options.alreadySaid ?? []).map(comparable);
  const wasSaid = (phrase: string): boolean => {
    const key = comparable(phrase);
    return key.length > 0 && said.some((text) => text.includes(key));
  };
  return {
    pick(choices) {
      if (choices.length === 0) return '';
      const fresh = choices.filter((choice) => !wasSaid(choice));
      const pool = fresh.length > 0 ? fresh : choices;
      const index = options.greedy ? 0 : Math.floor(random() * pool.length);
      return pool[Math.min(index, pool.length - 1)]!;
    },
    chance(p) {
      return random() < p;
    },
  };
}
