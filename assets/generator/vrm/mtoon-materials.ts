import type { MaterialSlot } from '../geometry/mesh-builder.js';

/** Look of one material slot. Colours come from vertex colours; these are the toon parameters. */
interface SlotLook {
  readonly doubleSided: boolean;
  readonly shade: readonly [number, number, number]; // multiplies the vertex colour in shadow
  readonly toony: number;
  readonly shift: number;
  readonly outline: number; // screen-space outline width factor, 0 = none
  readonly rim: readonly [number, number, number];
}

const LOOKS = {
  body: { doubleSided: false, shade: [0.78, 0.66, 0.72], toony: 0.92, shift: -0.05, outline: 0.0042, rim: [0.12, 0.1, 0.1] },
  cloth: { doubleSided: true, shade: [0.72, 0.66, 0.78], toony: 0.9, shift: -0.05, outline: 0.0042, rim: [0.1, 0.1, 0.12] },
  hair: { doubleSided: true, shade: [0.62, 0.58, 0.72], toony: 0.85, shift: 0.0, outline: 0.0038, rim: [0.18, 0.17, 0.2] },
  face: { doubleSided: false, shade: [0.86, 0.8, 0.84], toony: 0.92, shift: 0.25, outline: 0, rim: [0, 0, 0] },
  // The mouth interior reads by its colours (dark cavity, white teeth, red tongue): lit almost
  // flat so a turned head never paints a shadow band across the teeth.
  mouth: { doubleSided: false, shade: [0.9, 0.86, 0.88], toony: 0.9, shift: 0.6, outline: 0, rim: [0, 0, 0] },
} as const satisfies Record<MaterialSlot, SlotLook>;

/**
 * glTF material with the `VRMC_materials_mtoon` extension for one slot. Every colour lives in
 * the ramp atlas `texture`, used both as base colour and as shade multiply texture, so the shade
 * colour is the surface colour tinted by the slot's shade factor.
 */
export function mtoonMaterial(slot: MaterialSlot, texture: number): Record<string, unknown> {
  const look: SlotLook = LOOKS[slot];
  return {
    name: `${slot}-mtoon`,
    pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 1], baseColorTexture: { index: texture }, metallicFactor: 0, roughnessFactor: 1 },
    alphaMode: 'OPAQUE',
    doubleSided: look.doubleSided,
    extensions: {
      VRMC_materials_mtoon: {
        specVersion: '1.0',
        transparentWithZWrite: false,
        renderQueueOffsetNumber: 0,
        shadeColorFactor: [...look.shade],
        shadeMultiplyTexture: { index: texture },
        shadingShiftFactor: look.shift,
        shadingToonyFactor: look.toony,
        giEqualizationFactor: 0.9,
        matcapFactor: [0, 0, 0],
        parametricRimColorFactor: [...look.rim],
        rimLightingMixFactor: 1,
        parametricRimFresnelPowerFactor: 4,
        parametricRimLiftFactor: 0.05,
        outlineWidthMode: look.outline > 0 ? 'screenCoordinates' : 'none',
        outlineWidthFactor: look.outline,
        outlineColorFactor: [0.16, 0.11, 0.12],
        outlineLightingMixFactor: 0.5,
        uvAnimationScrollXSpeedFactor: 0,
        uvAnimationScrollYSpeedFactor: 0,
        uvAnimationRotationSpeedFactor: 0,
      },
    },
  };
}
