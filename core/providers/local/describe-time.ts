/**
 * Spoken times and dates ("It's 3:45 PM", "Thursday, January 1, 2026") for an instant in a time
 * zone. Formatting goes through `Intl`, so it needs no date library; an unknown zone falls back
 * to UTC rather than failing the reply.
 */
export interface SpokenInstant {
  time: string;
  date: string;
  /** The zone actually used, e.g. "UTC" or "Europe/Paris". */
  timeZone: string;
}

export function describeInstant(epochMs: number, timeZone: string): SpokenInstant {
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const instant = new Date(epochMs);
  const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: zone }).format(instant);
  const date = new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: zone }).format(instant);
  return { time: time.replace(/\u202f|\u00a0/g, ' '), date, timeZone: zone };
}

/** Whether `Intl` knows the zone name. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
