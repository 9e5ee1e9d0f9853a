import { NoToneMapping, SRGBColorSpace, type WebGLRenderer } from 'three';

/**
 * The renderer settings of the stage, in one place so the preview images of the avatar picker
 * (`assets/generator/preview/`) are rendered exactly like the live stage: sRGB output, no tone
 * mapping (MToon's toon ramps are authored for display values; ACES or AgX desaturate them) and a
 * transparent clear, so the page's own background shows behind the avatar.
 */
export function applyStageRendering(renderer: WebGLRenderer): void {
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.toneMapping = NoToneMapping;
  renderer.toneMappingExposure = 1;
  renderer.setClearColor(0x000000, 0);
}
