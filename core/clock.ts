/** Time source of the core, injected so tests run on a fake clock. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/** A clock that moves only when told to; for deterministic tests. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}

/**
 * `ms` as ISO 8601 in UTC, `2026-11-26T16:31:15.042Z`, exactly as `Date#toISOString` writes it.
 * A conversation read writes one per message: the clock part is formatted here by arithmetic
 * and the date part kept from the previous call of the same day, about a seventh of
 * `toISOString`'s cost. Times outside years 1970–9999 and fractions of a millisecond go to
 * `toISOString` (which throws a RangeError for an invalid time, as before).
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms < YEAR_10000 && Number.isInteger(ms))) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY);
  if (day !== lastDay) {
    lastDay = day;
    lastDate = new Date(day * DAY).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${lastDate}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

const DAY = 86_400_000;
/** `Date.UTC(10000, 0, 1)`: from then on `toISOString` writes a six-digit year. */
const YEAR_10000 = 253_402_300_800_000;
/** The UTC day of the last {@link isoTime} and its `YYYY-MM-DDT`. */
let lastDay = Number.NaN;
let lastDate = '';

const pad2 = (value: number) => (value < 10 ? `0${value}` : `${value}`);
