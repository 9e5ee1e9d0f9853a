import { Color, DoubleSide, Material, MeshBasicMaterial, Scene, WebGLRenderer, WebGLRenderTarget, type Camera, type Light, type Plane } from 'three';
import type { ArtAvatar } from './art-avatar.js';
import type { StageView } from './stage-view.js';

/** How one surface material is drawn in a flat render: a colour, optionally clipped. */
export interface FlatPaint {
  readonly color: number;
  /** Keeps only the side of each plane its normal points to (world space). */
  readonly clip?: readonly Plane[];
}

/**
 * Renders one avatar at a time, either lit as on the stage (the lights and colour settings read
 * from a real stage with `adopt`, transparent background) or flat (every surface material
 * replaced by one colour, outlines hidden, depth kept) for pixel measurements.
 */
export class ArtRenderer {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  #lights: readonly Light[] = [];

  constructor() {
    this.renderer = new WebGLRenderer({ alpha: true, antialias: false, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.renderer.localClippingEnabled = true;
  }

  /** Renders lit frames with the stage's lights and colour settings from now on. */
  adopt(view: StageView): void {
    for (const l of this.#lights) {
      this.scene.remove(l);
      l.dispose();
    }
    this.#lights = view.lights.map((l) => l.clone());
    for (const l of this.#lights) this.scene.add(l);
    this.renderer.outputColorSpace = view.outputColorSpace;
    this.renderer.toneMapping = view.toneMapping;
    this.renderer.toneMappingExposure = view.toneMappingExposure;
  }

  show(avatar: ArtAvatar): void {
    this.scene.add(avatar.vrm.scene);
  }

  hide(avatar: ArtAvatar): void {
    this.scene.remove(avatar.vrm.scene);
  }

  /** A lit frame as a 2D canvas (transparent where nothing is drawn). */
  lit(camera: Camera, width: number, height: number): HTMLCanvasElement {
    this.renderer.setClearColor(0x000000, 0);
    this.renderer.setSize(width, height, false);
    this.renderer.setRenderTarget(null);
    this.renderer.render(this.scene, camera);
    const out = document.createElement('canvas');
    out.width = width;
    out.height = height;
    out.getContext('2d')!.drawImage(this.renderer.domElement, 0, 0);
    return out;
  }

  /**
   * A flat frame's RGBA pixels (row 0 at the bottom, as WebGL reads them) on black. `paint` picks
   * each primitive's look by its surface material name; `null` hides the primitive.
   */
  flat(avatar: ArtAvatar, camera: Camera, width: number, height: number, paint: (material: string) => FlatPaint | null): Uint8Array {
    const saved = avatar.primitives.map((p) => p.mesh.material);
    const made: Material[] = [];
    const hidden = new MeshBasicMaterial({ visible: false });
    made.push(hidden);
    for (const p of avatar.primitives) {
      const look = paint(p.material);
      const flat = look
        ? new MeshBasicMaterial({ color: new Color(look.color), side: DoubleSide, toneMapped: false, clippingPlanes: look.clip ? [...look.clip] : null })
        : hidden;
      if (look) made.push(flat);
      // Outline passes (three-vrm adds them as a second material) are hidden: they would widen silhouettes.
      p.mesh.material = Array.isArray(p.mesh.material) ? p.mesh.material.map((m, i) => (i === 0 ? flat : hidden)) : flat;
    }
    const target = new WebGLRenderTarget(width, height);
    const pixels = new Uint8Array(width * height * 4);
    try {
      this.renderer.setClearColor(0x000000, 1);
      this.renderer.setRenderTarget(target);
      this.renderer.clear();
      this.renderer.render(this.scene, camera);
      this.renderer.readRenderTargetPixels(target, 0, 0, width, height, pixels);
    } finally {
      this.renderer.setRenderTarget(null);
      this.renderer.setClearColor(0x000000, 0);
      target.dispose();
      avatar.primitives.forEach((p, i) => (p.mesh.material = saved[i]!));
      for (const m of made) m.dispose();
    }
    return pixels;
  }

  dispose(): void {
    for (const l of this.#lights) l.dispose();
    this.renderer.dispose();
    this.renderer.forceContextLoss();
  }
}
