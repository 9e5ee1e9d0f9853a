import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { AvatarStage } from '../stage/avatar-stage.js';
import type { MouthWeights } from '../audio/mouth-weights.js';
import { closedMouth } from '../audio/mouth-weights.js';
import type { AvatarDetail } from '../transport/api-client.js';
import type { AvatarStateName, WireEmotion } from '../transport/transport.js';

export interface StageControllerOptions {
  maxFps?: number;
  /** Read when a stage is made; undefined leaves the stage's own caps (1 on software renderers, 1.5 on touch, else 2). */
  maxPixelRatio?: () => number | undefined;
}

/**
 * The 3D stage's lifecycle on the element: creates the `AvatarStage` when an avatar is known,
 * reports model download progress, falls back to the preview image without WebGL, feeds the
 * mouth every animation frame while speech plays, and disposes the renderer (GPU memory, the
 * WebGL context) when the element leaves the page.
 */
export class StageController implements ReactiveController {
  /** The live stage, or undefined (no avatar yet, fallback, or disconnected). */
  stage: AvatarStage | undefined;
  /** Model download 0…1 while loading, undefined otherwise. */
  progress: number | undefined;
  /** True when WebGL is unavailable: the element shows the preview image. */
  fallback = false;

  private loading: AbortController | undefined;
  private state: AvatarStateName = 'idle';
  private mouthSource: (() => MouthWeights) | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: StageControllerOptions = {},
  ) {
    host.addController(this);
  }

  /** Shows `avatar` in `container` (replacing any previous stage). Resolves when the model is shown. */
  async show(avatar: AvatarDetail, container: HTMLElement): Promise<void> {
    this.dispose();
    if (!AvatarStage.webglAvailable()) {
      this.fallback = true;
      this.host.requestUpdate();
      return;
    }
    this.fallback = false;
    const loading = new AbortController();
    this.loading = loading;
    const maxPixelRatio = this.options.maxPixelRatio?.();
    const stage = new AvatarStage({
      container,
      ...(this.options.maxFps !== undefined && { maxFps: this.options.maxFps }),
      ...(maxPixelRatio !== undefined && { maxPixelRatio }),
    });
    this.stage = stage;
    this.setProgress(0);
    try {
      await stage.load(avatar.model_url, {
        signal: loading.signal,
        onProgress: (fraction: number) => this.setProgress(fraction),
      });
      if (loading.signal.aborted) return;
      stage.setAnimations(prefersReducedMotion() ? { ...avatar.animations, ...CALM_ANIMATIONS } : avatar.animations);
      stage.setState(this.state);
      this.attachMouth();
    } finally {
      if (this.loading === loading) {
        this.loading = undefined;
        this.setProgress(undefined);
      }
    }
  }

  /** Switches the animation (idle / thinking / talking); leaving `talking` eases the face back to neutral. */
  setState(state: AvatarStateName): void {
    this.state = state;
    this.stage?.setState(state);
    if (state !== 'talking') this.stage?.setEmotion(undefined);
  }

  /** The emotion of the sentence being spoken (eased in by the stage), or back to neutral. */
  setEmotion(emotion: WireEmotion | undefined): void {
    this.stage?.setEmotion(emotion);
  }

  /**
   * Feeds `source()` into the mouth before every rendered frame while speech plays, so mouth and
   * sound meet in the same frame (and nothing runs while the stage is paused off screen).
   */
  followMouth(source: () => MouthWeights): void {
    this.mouthSource = source;
    this.attachMouth();
  }

  /** Stops the feed, closes the mouth and eases the face back to neutral. */
  closeMouth(): void {
    this.mouthSource = undefined;
    if (this.stage) {
      this.stage.onFrame = undefined;
      this.stage.setMouth(closedMouth());
      this.stage.setEmotion(undefined);
    }
  }

  private attachMouth(): void {
    const stage = this.stage;
    const source = this.mouthSource;
    if (!stage || !source) return;
    stage.onFrame = () => stage.setMouth(source());
  }

  private setProgress(progress: number | undefined): void {
    this.progress = progress === undefined ? undefined : Math.max(0, Math.min(1, progress));
    this.host.requestUpdate();
  }

  /** Frees the renderer and stops loading. Safe to call twice. */
  dispose(): void {
    this.loading?.abort();
    this.loading = undefined;
    this.closeMouth();
    this.stage?.dispose();
    this.stage = undefined;
    this.progress = undefined;
  }

  hostDisconnected(): void {
    this.dispose();
    this.fallback = false;
  }
}

/** With `prefers-reduced-motion: reduce`: a calm idle, talking without arm gestures, thinking without the hand. */
const CALM_ANIMATIONS = { idle: 'idle_breathing', talking: 'talking_calm', thinking: 'thinking_look_up' } as const;

function prefersReducedMotion(): boolean {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}
