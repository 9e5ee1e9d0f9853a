import type { Clock } from '../../clock.js';

/** Waits `ms` milliseconds; resolves early (never rejects) when `signal` aborts. */
import type { Sleep } from '../../util/sleep.js';
export type { Sleep };

/**
 * Options of the offline engine. Everything that would make it nondeterministic — the clock, the
 * variation seed, the pacing timer — is injected here, so tests are stable without global mocks.
 */
export interface LocalProviderSettings {
  /**
   * Answers "what time is it" / "what's the date". Without a clock the engine says honestly that it
   * cannot tell the time instead of guessing.
   */
  clock?: Clock;
  /** IANA zone for spoken times and dates; default `UTC` (and the reply then says "in UTC"). */
  timeZone?: string;
  /**
   * Mixed into the per-conversation seed that picks among phrasings. Replies are a pure function of
   * (conversation, character, seed); change the seed to get a different but equally stable wording.
   */
  seed?: number;
  /** Pause between streamed pieces to simulate speaking pace; default 0 (just yields to the event loop). */
  deltaDelayMs?: number;
  /** The timer behind `deltaDelayMs`; inject a fake one in tests. Default: `setTimeout`. */
  sleep?: Sleep;
}
