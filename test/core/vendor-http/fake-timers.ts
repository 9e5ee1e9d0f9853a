import type { Schedule } from '../../../core/vendor-http/http-settings.js';

/** A timer the test fires by hand: timeouts become deterministic, with no real waiting. */
export interface FakeTimer {
  ms: number;
  cancelled: boolean;
  fire(): void;
}

export function fakeSchedule(): { schedule: Schedule; timers: FakeTimer[]; active(): FakeTimer[] } {
  const timers: FakeTimer[] = [];
  const schedule: Schedule = (ms, callback) => {
    const timer: FakeTimer = {
      ms,
      cancelled: false,
      fire() {
        if (!timer.cancelled) callback();
      },
    };
    timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  };
  return { schedule, timers, active: () => timers.filter((t) => !t.cancelled) };
}

/** Lets pending promise callbacks run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
