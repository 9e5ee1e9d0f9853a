/**
 * A requestAnimationFrame loop capped at `maxFps`, running only while every pause reason is
 * cleared (e.g. `offscreen`, `hidden`, `unloaded`). While paused no frame is requested at all,
 * so an off-screen avatar costs nothing.
 */
export class RenderLoop {
  readonly #tick: (now: number) => void;
  readonly #minInterval: number;
  readonly #paused = new Set<string>();
  #handle = 0;
  #last = -Infinity;
  #disposed = false;

  /** @param tick called with the rAF timestamp (ms, `performance.now()` clock) of each frame it renders */
  constructor(options: { maxFps: number; tick: (now: number) => void }) {
    this.#tick = options.tick;
    // A little tolerance: rAF at 60 Hz delivers 16.6 ms steps, so a 30 fps cap must accept 33.2 ms.
    this.#minInterval = options.maxFps > 0 ? 1000 / options.maxFps - 2 : 0;
  }

  get running(): boolean {
    return this.#handle !== 0;
  }

  /** Adds (`true`) or clears (`false`) a reason to pause. */
  pause(reason: string, paused: boolean): void {
    if (paused) this.#paused.add(reason);
    else this.#paused.delete(reason);
    this.#update();
  }

  dispose(): void {
    this.#disposed = true;
    this.#update();
  }

  #update(): void {
    const run = !this.#disposed && this.#paused.size === 0;
    if (run && !this.#handle) this.#handle = requestAnimationFrame(this.#frame);
    if (!run && this.#handle) {
      cancelAnimationFrame(this.#handle);
      this.#handle = 0;
    }
  }

  readonly #frame = (now: number): void => {
    this.#handle = requestAnimationFrame(this.#frame);
    if (now - this.#last < this.#minInterval) return;
    this.#last = now;
    this.#tick(now);
  };
}
