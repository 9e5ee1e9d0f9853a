import { PerspectiveCamera, Scene, Vector3, WebGLRenderer } from 'three';
import { VRMUtils, type VRM } from '@pixiv/three-vrm';
import { closedMouth, MouthVisemes, type MouthWeights } from '../audio/mouth-weights.js';
import { AnimationBlender } from './animations/animation-blender.js';
import { DefaultAnimations, type AnimationNames, type AnimationState } from './animations/animation-registry.js';
import { HumanoidRig } from './animations/humanoid-rig.js';
import { measureBody } from './animations/body-measures.js';
import { frameCamera, headAndShouldersBox, type FramingBox } from './camera-framing.js';
import { EmotionExpression, StageEmotions, type StageEmotion } from './emotion-expression.js';
import { applyStageRendering } from './stage-rendering.js';
import { RenderLoop } from './render-loop.js';
import { addStageLighting } from './stage-lighting.js';
import { StageVisibility } from './stage-visibility.js';
import { loadVrm } from './vrm-loader.js';
import { probeWebgl } from './webgl-support.js';

export type { MouthWeights } from '../audio/mouth-weights.js';
export type { AnimationNames, AnimationState } from './animations/animation-registry.js';
export type { StageEmotion } from './emotion-expression.js';

export interface AvatarStageOptions {
  /** The stage fills this element (a canvas is appended) and follows its size. */
  container: HTMLElement;
  /** Frame-rate cap (default 30). */
  maxFps?: number;
  /** Device-pixel-ratio cap (default 2, 1.5 on touch devices, 1 on a CPU renderer). */
  maxPixelRatio?: number;
  /** Varies the procedural motion between stages (default: random); fix it for repeatable renders. */
  seed?: number;
}

export interface FrameInfo {
  /** Stage clock in seconds: advances only while frames render. */
  time: number;
  /** Seconds since the previous rendered frame (≤ 0.1). */
  delta: number;
}

/** Pause reasons of the render loop. */
const Pause = { unloaded: 'unloaded', offscreen: 'offscreen', hidden: 'hidden', empty: 'empty' } as const;

/**
 * Renders one VRM avatar, head, shoulders and upper chest, on a transparent canvas inside
 * `container` (theme it with the container's CSS background), animated by the idle / thinking /
 * talking state machine, looking at the viewer (the camera) unless the pose looks away, with the
 * mouth set each frame by the caller and an emotion (`setEmotion`) eased in and out of the face.
 *
 * Frames are capped at `maxFps` and not rendered at all while the container is off screen, the
 * tab hidden or the container has no size. `dispose()` releases everything on the GPU.
 *
 * @example
 * if (AvatarStage.webglAvailable()) {
 *   const stage = new AvatarStage({ container });
 *   await stage.load('/assets/avatars/luna-001.vrm', { onProgress: (f) => (bar.value = f) });
 *   stage.setAnimations({ idle: 'idle_sway', talking: 'talking_calm', thinking: 'thinking_chin' });
 *   stage.onFrame = () => stage.setMouth(player.mouth());
 * }
 */
export class AvatarStage {
  /** Whether this browser can create the WebGL 2 context the stage needs. */
  static webglAvailable(): boolean {
    return probeWebgl().available;
  }

  readonly canvas: HTMLCanvasElement;
  /** Called before each rendered frame: the place to set the mouth for this frame. */
  onFrame?: ((info: FrameInfo) => void) | undefined;
  /** Frames rendered so far (stops growing while paused). */
  renderedFrames = 0;

  readonly #container: HTMLElement;
  readonly #renderer: WebGLRenderer;
  readonly #scene = new Scene();
  readonly #camera = new PerspectiveCamera(22, 3 / 4, 0.1, 20);
  readonly #loop: RenderLoop;
  readonly #visibility: StageVisibility;
  readonly #resize: ResizeObserver;
  readonly #removeLights: () => void;
  #vrm: VRM | undefined;
  #rig: HumanoidRig | undefined;
  #blender: AnimationBlender | undefined;
  #framing: FramingBox | undefined;
  #names: AnimationNames = { ...DefaultAnimations };
  #state: AnimationState = 'idle';
  #mouth: MouthWeights = closedMouth();
  readonly #emotion = new EmotionExpression();
  readonly #seed: number | undefined;
  readonly #eye = new Vector3();
  #clock = 0;
  #lastNow: number | undefined;
  #loading: AbortController | undefined;
  #disposed = false;

  constructor(options: AvatarStageOptions) {
    this.#container = options.container;
    this.#seed = options.seed;
    const touch = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
    // A CPU renderer (no GPU, e.g. SwiftShader in a VM) pays for every pixel: ratio 1, no MSAA.
    const { software } = probeWebgl();
    const maxPixelRatio = options.maxPixelRatio ?? (software ? 1 : touch ? 1.5 : 2);
    const pixelRatio = Math.min(globalThis.devicePixelRatio || 1, maxPixelRatio);

    this.canvas = document.createElement('canvas');
    this.canvas.style.display = 'block';
    this.canvas.style.width = '100%';
    this.canvas.style.height = '100%';
    this.#renderer = new WebGLRenderer({
      canvas: this.canvas,
      alpha: true,
      // MSAA is cheap on real GPUs at ratio 1–1.5; at 2 the pixels are small enough without it.
      antialias: !software && pixelRatio < 2,
      powerPreference: 'low-power',
    });
    applyStageRendering(this.#renderer);
    this.#renderer.setPixelRatio(pixelRatio);
    this.#removeLights = addStageLighting(this.#scene);

    this.#loop = new RenderLoop({ maxFps: options.maxFps ?? 30, tick: (now) => this.#tick(now) });
    this.#loop.pause(Pause.unloaded, true);
    this.#container.appendChild(this.canvas);

    this.#resize = new ResizeObserver(() => this.#fit());
    this.#resize.observe(this.#container);
    this.#fit();
    this.#visibility = new StageVisibility(this.#container, ({ onScreen, tabVisible }) => {
      this.#loop.pause(Pause.offscreen, !onScreen);
      this.#loop.pause(Pause.hidden, !tabVisible);
    });
    this.#visibility.hostConnected();
  }

  /** The loaded avatar (for diagnostics and tests); `undefined` before `load()` resolves. */
  get vrm(): VRM | undefined {
    return this.#vrm;
  }

  /** The stage's camera (framing head and upper chest), for tests that project points into the frame. */
  get camera(): PerspectiveCamera {
    return this.#camera;
  }

  get state(): AnimationState {
    return this.#state;
  }

  /** Whether frames are being rendered (loaded, on screen, tab visible, non-empty container). */
  get rendering(): boolean {
    return this.#loop.running;
  }

  /**
   * Downloads and shows a VRM, replacing the current one. Rejects with an `AbortError` when
   * `signal` aborts, another `load()` starts or the stage is disposed.
   */
  async load(modelUrl: string, options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {}): Promise<void> {
    if (this.#disposed) throw new DOMException('AvatarStage is disposed', 'AbortError');
    this.#loading?.abort();
    const loading = new AbortController();
    this.#loading = loading;
    const signal = options.signal ? AbortSignal.any([options.signal, loading.signal]) : loading.signal;
    const vrm = await loadVrm(modelUrl, { signal, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
    if (signal.aborted) {
      VRMUtils.deepDispose(vrm.scene);
      signal.throwIfAborted();
    }
    this.#loading = undefined;
    this.#unloadModel();

    this.#vrm = vrm;
    this.#scene.add(vrm.scene);
    if (vrm.lookAt) vrm.lookAt.autoUpdate = false;
    this.#rig = new HumanoidRig(vrm.humanoid);
    vrm.scene.updateMatrixWorld(true);
    const body = measureBody(vrm);
    this.#blender = new AnimationBlender({ rig: this.#rig, body, ...(this.#seed !== undefined && { seed: this.#seed }) });
    this.#blender.setAnimations(this.#names);
    this.#blender.setState(this.#state);
    vrm.update(0);
    this.#framing = headAndShouldersBox(vrm);
    frameCamera(this.#camera, this.#framing);
    // Compile shaders now rather than on the first visible frame.
    this.#renderer.compile(this.#scene, this.#camera);
    this.#loop.pause(Pause.unloaded, false);
  }

  /** The animation named for each state. */
  get animations(): AnimationNames {
    return { ...this.#names };
  }

  /** Names the animation of each state (unknown names fall back to the state's default). */
  setAnimations(names: AnimationNames): void {
    this.#names = { ...names };
    this.#blender?.setAnimations(this.#names);
  }

  /** Cross-fades (≈300 ms) to the state's animation. */
  setState(state: AnimationState): void {
    this.#state = state;
    this.#blender?.setState(state);
  }

  /** Mouth shape for the next frames (0…1 per viseme); call from `onFrame` to stay in sync. */
  setMouth(weights: MouthWeights): void {
    for (const v of MouthVisemes) this.#mouth[v] = Math.max(0, Math.min(1, weights[v] || 0));
  }

  /**
   * The emotion the face shows from now on, eased in over ≈0.2 s (`undefined`: back to neutral,
   * ≈0.5 s). `weight` defaults to a level that leaves the visemes readable (`EmotionWeights`).
   * Models without the expression simply do not show it.
   */
  setEmotion(emotion: StageEmotion | undefined, weight?: number): void {
    this.#emotion.set(emotion, weight);
  }

  /** The emotion being shown or eased toward. */
  get emotion(): StageEmotion | undefined {
    return this.#emotion.target;
  }

  /** Current weight (0…1) of an emotion on the face, for tests and diagnostics. */
  emotionWeight(emotion: StageEmotion): number {
    return this.#emotion.weight(emotion);
  }

  /**
   * Moves the stage clock `seconds` ahead without drawing, in frame-sized steps (≤ 1/30 s) that
   * do everything a frame does but render: motion, cross-fades, emotions, and the model's own
   * update (spring bones swing, expressions apply). For snapshots and tests of a pose at a known
   * time; call `capture()` to see the result.
   */
  advance(seconds: number): void {
    let left = Math.max(0, seconds);
    while (left > 1e-9) {
      const delta = Math.min(1 / 30, left);
      left -= delta;
      this.#clock += delta;
      this.#update(this.#clock, delta);
    }
  }

  /**
   * Renders a frame now and returns its pixels (top row first). For tests and snapshots; works
   * while paused, not after `dispose()`.
   */
  capture(): ImageData {
    if (this.#disposed) throw new Error('AvatarStage is disposed');
    this.#renderFrame(this.#clock, 0);
    const gl = this.#renderer.getContext();
    const width = gl.drawingBufferWidth;
    const height = gl.drawingBufferHeight;
    const pixels = new Uint8ClampedArray(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    const image = new ImageData(width, height);
    const row = width * 4;
    for (let y = 0; y < height; y++) image.data.set(pixels.subarray((height - 1 - y) * row, (height - y) * row), y * row);
    return image;
  }

  /** Stops rendering, removes observers and listeners, frees the model and the WebGL context. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.onFrame = undefined;
    this.#loading?.abort();
    this.#loop.dispose();
    this.#visibility.hostDisconnected();
    this.#resize.disconnect();
    this.#unloadModel();
    this.#removeLights();
    this.#renderer.dispose();
    this.#renderer.forceContextLoss();
    this.canvas.remove();
  }

  #unloadModel(): void {
    if (!this.#vrm) return;
    this.#scene.remove(this.#vrm.scene);
    VRMUtils.deepDispose(this.#vrm.scene);
    this.#vrm = undefined;
    this.#rig = undefined;
    this.#blender = undefined;
    this.#emotion.reset();
    this.#loop.pause(Pause.unloaded, true);
  }

  #fit(): void {
    const width = this.#container.clientWidth;
    const height = this.#container.clientHeight;
    this.#loop.pause(Pause.empty, width === 0 || height === 0);
    if (width === 0 || height === 0) return;
    this.#renderer.setSize(width, height, false);
    this.#camera.aspect = width / height;
    if (this.#framing) frameCamera(this.#camera, this.#framing);
    else this.#camera.updateProjectionMatrix();
  }

  #tick(now: number): void {
    // Pauses do not count: the clock resumes where it stopped.
    const delta = this.#lastNow === undefined ? 0 : Math.min(0.1, Math.max(0, (now - this.#lastNow) / 1000));
    this.#lastNow = now;
    this.#clock += delta;
    this.onFrame?.({ time: this.#clock, delta });
    if (this.#disposed) return;
    this.#renderFrame(this.#clock, delta);
  }

  #renderFrame(time: number, delta: number): void {
    this.#update(time, delta);
    this.#renderer.render(this.#scene, this.#camera);
    this.renderedFrames++;
  }

  /** Poses the model for `time` and advances its own state (springs, expressions) by `delta`. */
  #update(time: number, delta: number): void {
    const vrm = this.#vrm;
    if (vrm && this.#blender && this.#rig) {
      const pose = this.#blender.update(time);
      this.#rig.apply(pose);
      if (vrm.lookAt) {
        // Eye contact: the gaze starts at the camera (the viewer) as far as the pose asks for it,
        // and the pose's own glances and saccades are added on top.
        let yaw = 0;
        let pitch = 0;
        if (pose.eyeContact > 0) {
          // The raw head must carry this frame's pose before the direction to the camera is taken.
          vrm.humanoid.update();
          vrm.scene.updateMatrixWorld(true);
          vrm.lookAt.lookAt(this.#camera.getWorldPosition(this.#eye));
          yaw = vrm.lookAt.yaw * pose.eyeContact;
          pitch = vrm.lookAt.pitch * pose.eyeContact;
        }
        vrm.lookAt.yaw = yaw + pose.lookYaw;
        vrm.lookAt.pitch = pitch + pose.lookPitch;
      }
      this.#emotion.update(delta);
      const expressions = vrm.expressionManager;
      if (expressions) {
        expressions.setValue('blink', pose.blink);
        for (const v of MouthVisemes) expressions.setValue(v, this.#mouth[v]);
        for (const e of StageEmotions) expressions.setValue(e, this.#emotion.weight(e));
      }
      vrm.update(delta);
    }
  }
}
