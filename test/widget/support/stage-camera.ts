import type { PerspectiveCamera } from 'three';
import { AvatarStage } from '../../../widget/stage/avatar-stage.js';

/**
 * The camera a real `AvatarStage` of `width`×`height` CSS pixels frames `url` with, read from
 * the stage's own render (its scene's `onBeforeRender`), so the test judges what the widget
 * shows whatever framing the stage uses. The stage is disposed before this returns.
 */
export async function stageCamera(url: string, width: number, height: number): Promise<PerspectiveCamera> {
  const container = document.createElement('div');
  container.style.cssText = `position:fixed;left:0;top:0;width:${width}px;height:${height}px`;
  document.body.appendChild(container);
  const stage = new AvatarStage({ container });
  try {
    await stage.load(url);
    const scene = stage.vrm?.scene.parent;
    if (!scene) throw new Error('the stage did not put the avatar in a scene');
    let camera: PerspectiveCamera | undefined;
    scene.onBeforeRender = (_renderer, _scene, cam) => {
      camera = (cam as PerspectiveCamera).clone();
    };
    stage.capture();
    if (!camera) throw new Error('the stage rendered without a camera');
    return camera;
  } finally {
    stage.dispose();
    container.remove();
  }
}
