import type { Clock } from '../clock.js';
import type { ConversationScope, DailyUsage, KeyMode, Owner, Store } from '../ports/store.js';
import { ValidationError } from '../errors.js';

const DAY_MS = 86_400_000;
/** The longest window {@link UsageService.daily} reports: a year and a day. */
export const MAX_DAILY_WINDOW = 366;

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

/** One UTC day of {@link DailyReport}: metered usage and the conversations started. */
export interface DailyFigures {
  day: string;
  aiTokens: number;
  ttsCharacters: number;
  conversations: number;
}

/** Usage per day for a chart: every day of the window (zeros included) and the totals. */
export interface DailyReport {
  from: string;
  to: string;
  /** The mode reported; undefined: both modes added together. */
  mode: KeyMode | undefined;
  total: { aiTokens: number; ttsCharacters: number; conversations: number };
  days: DailyFigures[];
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

  /**
   * The last `days` UTC days up to today, every day present (oldest first): AI tokens, speech
   * characters and conversations started (those since deleted are not counted), for one mode of
   * the account or both.
   */
  async daily(scope: ConversationScope, days: number): Promise<DailyReport> {
    if (!Number.isInteger(days) || days < 1 || days > MAX_DAILY_WINDOW) {
      throw new ValidationError('days', `days must be an integer from 1 to ${MAX_DAILY_WINDOW}`);
    }
    const to = UsageService.dayOf(this.#clock.now());
    const firstMs = startOf(to) - (days - 1) * DAY_MS;
    const from = UsageService.dayOf(firstMs);
    const modes: KeyMode[] = scope.mode === undefined ? ['live', 'test'] : [scope.mode];
    const [counts, ...usage] = await Promise.all([
      this.#store.conversations.countByDay(scope, firstMs, startOf(to) + DAY_MS),
      ...modes.map((mode) => this.#store.usage.list({ accountId: scope.accountId, mode }, from, to)),
    ]);
    const byDay = new Map<string, DailyFigures>();
    for (let ms = firstMs; ms <= startOf(to); ms += DAY_MS) {
      const day = UsageService.dayOf(ms);
      byDay.set(day, { day, aiTokens: 0, ttsCharacters: 0, conversations: 0 });
    }
    for (const row of usage.flat()) {
      const figures = byDay.get(row.day);
      if (!figures) continue;
      figures.aiTokens += row.aiTokens;
      figures.ttsCharacters += row.ttsCharacters;
    }
    for (const row of counts) {
      const figures = byDay.get(row.day);
      if (figures) figures.conversations += row.count;
    }
    const list = [...byDay.values()];
    const total = list.reduce(
      (sum, d) => ({ aiTokens: sum.aiTokens + d.aiTokens, ttsCharacters: sum.ttsCharacters + d.ttsCharacters, conversations: sum.conversations + d.conversations }),
      { aiTokens: 0, ttsCharacters: 0, conversations: 0 },
    );
    return { from, to, mode: scope.mode, total, days: list };
  }
}
