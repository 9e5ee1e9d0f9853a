import { BlinkGenerator } from './blink-generator.js';
import type { AvatarAnimation } from './avatar-animation.js';
import { DefaultBodyMeasures, type BodyMeasures } from './body-measures.js';
import type { HumanoidRig } from './humanoid-rig.js';
import { blendPoses, copyPose, createPose, resetPose, type Pose } from './pose.js';
import { DefaultAnimations, resolveAnimation, type AnimationNames, type AnimationState } from './animation-registry.js';
import { ease } from './procedural-motion.js';

export interface AnimationBlenderOptions {
  readonly rig: HumanoidRig;
  /** Cross-fade length in seconds (default 0.3). */
  readonly fadeSeconds?: number;
  /** Varies the motion between avatars (default: random). */
  readonly seed?: number;
  /** The model's sizes (`measureBody`); default: an average adult's. */
  readonly body?: BodyMeasures;
  /** For blinks; inject a seeded one in tests. */
  readonly random?: () => number;
}

/**
 * The animation state machine: one animation per state (`idle`, `thinking`, `talking`), a
 * cross-fade (≈300 ms, eased) whenever the state or the state's animation changes. A change in
 * the middle of a fade starts the new fade from the pose on screen, so nothing jumps. Blinks run
 * on top, independent of the state.
 *
 * Driven by the stage clock: call `update(time)` once per frame and apply the returned pose.
 */
export class AnimationBlender {
  readonly #rig: HumanoidRig;
  readonly #fade: number;
  readonly #seed: number;
  readonly #body: BodyMeasures;
  readonly #blinks: BlinkGenerator;
  #names: AnimationNames = { ...DefaultAnimations };
  #state: AnimationState = 'idle';
  #current: AvatarAnimation;
  /** While fading: the pose we fade from (a snapshot) and when the fade started. */
  #from: Pose | undefined;
  #fadeStart = 0;
  #pendingFade = false;
  #time = 0;
  #started = false;
  readonly #a = createPose();
  readonly #out = createPose();

  constructor(options: AnimationBlenderOptions) {
    this.#rig = options.rig;
    this.#fade = Math.max(0, options.fadeSeconds ?? 0.3);
    this.#seed = options.seed ?? Math.random() * 100;
    this.#body = options.body ?? DefaultBodyMeasures;
    this.#blinks = new BlinkGenerator(options.random);
    this.#current = this.#create(this.#state);
  }

  get state(): AnimationState {
    return this.#state;
  }

  /** The animation playing (or fading in) now. */
  get animation(): string {
    return this.#current.name;
  }

  /** True while a cross-fade is in progress. */
  get fading(): boolean {
    return this.#from !== undefined || this.#pendingFade;
  }

  /** Picks the animation of each state by name; unknown names fall back to the state's default. */
  setAnimations(names: AnimationNames): void {
    this.#names = { ...names };
    const next = this.#create(this.#state);
    if (next.name !== this.#current.name) this.#switchTo(next);
  }

  setState(state: AnimationState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.#switchTo(this.#create(state));
  }

  /** The pose at `time` (seconds, monotonic stage clock), blink included. */
  update(time: number): Pose {
    this.#time = time;
    this.#started = true;
    if (this.#pendingFade) {
      this.#pendingFade = false;
      this.#fadeStart = time;
    }
    resetPose(this.#a);
    this.#current.evaluate(time, this.#a);
    if (this.#from) {
      const t = this.#fade === 0 ? 1 : (time - this.#fadeStart) / this.#fade;
      if (t >= 1) this.#from = undefined;
      else blendPoses(this.#from, this.#a, ease(t), this.#a);
    }
    copyPose(this.#a, this.#out);
    this.#out.blink = Math.min(1, Math.max(this.#out.blink, this.#blinks.update(time)));
    return this.#out;
  }

  #switchTo(next: AvatarAnimation): void {
    this.#current = next;
    // Nothing on screen yet: start straight in the new animation.
    if (!this.#started) return;
    // Fade from what is on screen now (the last output, possibly mid-fade itself).
    this.#from = copyPose(this.#out, this.#from ?? createPose());
    this.#from.blink = 0;
    // The fade starts at the next update, so it is measured on the stage clock.
    this.#pendingFade = true;
    this.#fadeStart = this.#time;
  }

  #create(state: AnimationState): AvatarAnimation {
    return resolveAnimation(state, this.#names[state])({ rig: this.#rig, seed: this.#seed, body: this.#body });
  }
}
