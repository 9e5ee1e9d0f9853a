import type { ColorSpace, Light, PerspectiveCamera, ToneMapping } from 'three';
import { AvatarStage } from '../../../widget/stage/avatar-stage.js';

/** What a real `AvatarStage` renders with: its framing camera, colour settings and lights. */
export interface StageView {
  readonly camera: PerspectiveCamera;
  readonly outputColorSpace: ColorSpace;
  readonly toneMapping: ToneMapping;
  readonly toneMappingExposure: number;
  /** Copies of the stage scene's lights. */
  readonly lights: readonly Light[];
}

/**
 * Loads `url` into a real `AvatarStage` of `width`×`height` CSS pixels and reads, from the
 * stage's own render (its scene's `onBeforeRender`), the camera it frames the avatar with, the
 * renderer's colour settings and the scene's lights, so the art test judges and draws what the
 * widget shows, whatever framing and lighting the stage uses. The stage is disposed before this
 * returns.
 */
export async function readStageView(url: string, width: number, height: number): Promise<StageView> {
  const container = document.createElement('div');
  container.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px`;
  document.body.appendChild(container);
  const stage = new AvatarStage({ container });
  try {
    await stage.load(url);
    const scene = stage.vrm?.scene.parent;
    if (!scene) throw new Error('the stage did not put the avatar in a scene');
    let view: StageView | undefined;
    scene.onBeforeRender = (renderer, s, camera) => {
      const lights: Light[] = [];
      s.traverse((o) => {
        if ((o as Light).isLight) lights.push((o as Light).clone());
      });
      view = {
        camera: (camera as PerspectiveCamera).clone(),
        outputColorSpace: renderer.outputColorSpace as ColorSpace,
        toneMapping: renderer.toneMapping,
        toneMappingExposure: renderer.toneMappingExposure,
        lights,
      };
    };
    stage.capture();
    if (!view) throw new Error('the stage rendered nothing');
    return view;
  } finally {
    stage.dispose();
    container.remove();
  }
}
