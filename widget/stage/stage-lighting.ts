import { DirectionalLight, HemisphereLight, type Light, type Scene } from 'three';

/**
 * Soft, MToon-friendly lighting: a hemisphere fill (cool sky, warm ground) so toon shadows are
 * never black, a key light from the front left above, and a faint rim from behind that separates
 * hair and shoulders from any page background.
 */
export function addStageLighting(scene: Scene): () => void {
  const lights: Light[] = [];
  const hemisphere = new HemisphereLight(0xf4f7ff, 0x8a7f78, 1.6);
  const key = new DirectionalLight(0xfff6ee, 2.2);
  key.position.set(-0.8, 2.2, 2.5);
  const rim = new DirectionalLight(0xdde8ff, 1.0);
  rim.position.set(1.2, 2.0, -2.0);
  lights.push(hemisphere, key, rim);
  for (const l of lights) scene.add(l);
  return () => {
    for (const l of lights) {
      scene.remove(l);
      l.dispose();
    }
  };
}
