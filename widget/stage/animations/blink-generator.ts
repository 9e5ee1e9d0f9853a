/**
 * Blinks at random intervals (2–6 s, sometimes a double blink), each ≈150 ms: fast close, slower
 * open. Runs across animation states, so a cross-fade never produces half a blink.
 */
export class BlinkGenerator {
  readonly #random: () => number;
  #next: number;
  #start = -Infinity;
  #double = false;

  constructor(random: () => number = Math.random) {
    this.#random = random;
    this.#next = 1 + random() * 2;
  }

  /** Blink weight (0 open … 1 closed) at `time` seconds. */
  update(time: number): number {
    if (time < this.#start) {
      // The clock went back (new stage clock): start over.
      this.#start = -Infinity;
      this.#next = time + 1;
    }
    if (time >= this.#next) {
      this.#start = time;
      this.#double = !this.#double && this.#random() < 0.15;
      this.#next = time + (this.#double ? 0.25 : 2 + this.#random() * 4);
    }
    const t = time - this.#start;
    const close = 0.06;
    const open = 0.1;
    if (t < 0 || t > close + open) return 0;
    return t < close ? t / close : 1 - (t - close) / open;
  }
}
