import type { Clock } from '../clock.js';
import type { DailyUsage, Owner, Store } from '../ports/store.js';
import { ValidationError } from '../errors.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const startOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** `value` if it is a real calendar day (`2026-02-30` is not), else a validation error on `field`. */
function calendarDay(field: string, value: string): string {
  const ms = startOf(value);
  if (!DAY.test(value) || Number.isNaN(ms) || UsageService.dayOf(ms) !== value) {
    throw new ValidationError(field, `${field} must be a date like 2026-01-31`);
  }
  return value;
}

export interface UsageReport {
  from: string;
  to: string;
  total: { aiTokens: number; ttsCharacters: number };
  days: DailyUsage[];
}

/** Usage metering: AI tokens and speech characters per account, mode and UTC day. */
export class UsageService {
  readonly #store: Store;
  readonly #clock: Clock;

  constructor(deps: { store: Store; clock: Clock }) {
    this.#store = deps.store;
    this.#clock = deps.clock;
  }

  /** The UTC day a usage at `ms` belongs to. */
  static dayOf(ms: number): string {
    return new Date(ms).toISOString().slice(0, 10);
  }

  /** Counts usage now; pass the transaction's store to count it atomically with the change. */
  async record(owner: Owner, usage: { aiTokens?: number; ttsCharacters?: number }, store: Store = this.#store): Promise<void> {
    const aiTokens = usage.aiTokens ?? 0;
    const ttsCharacters = usage.ttsCharacters ?? 0;
    if (aiTokens === 0 && ttsCharacters === 0) return;
    await store.usage.add(owner, UsageService.dayOf(this.#clock.now()), { aiTokens, ttsCharacters });
  }

  /** Usage between two UTC days inclusive (default: the last 30 days). */
  async report(owner: Owner, range: { from?: string; to?: string } = {}): Promise<UsageReport> {
    const to = range.to === undefined ? UsageService.dayOf(this.#clock.now()) : calendarDay('to', range.to);
    const from = range.from === undefined ? UsageService.dayOf(startOf(to) - 29 * 86_400_000) : calendarDay('from', range.from);
    if (from > to) throw new ValidationError('from', 'from must not be after to');
    const days = await this.#store.usage.list(owner, from, to);
    const total = days.reduce((sum, d) => ({ aiTokens: sum.aiTokens + d.aiTokens, ttsCharacters: sum.ttsCharacters + d.ttsCharacters }), {
      aiTokens: 0,
      ttsCharacters: 0,
    });
    return { from, to, total, days };
  }
}
