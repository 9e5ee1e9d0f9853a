import { Box3, Vector3 } from 'three';

/**
 * The head as a solid, in the head bone's frame: the ellipsoid inscribed in the bounding box of
 * the head's skin vertices, shrunk by `shrink`. A box would count the empty corners beside the
 * jaw and neck (where a thinking hand rightly rests) as head; the inscribed ellipsoid follows the
 * skull and leaves ears, nose tip and chin tip outside, so a hand touching the face is allowed and
 * a hand passing into it is not.
 */
export class HeadVolume {
  readonly center: Vector3;
  readonly radii: Vector3;

  constructor(headSkin: readonly Vector3[], shrink = 0.9) {
    if (headSkin.length === 0) throw new Error('no head skin vertices (body-mtoon / face-mtoon weighted to the head bone)');
    const box = new Box3().setFromPoints([...headSkin]);
    this.center = box.getCenter(new Vector3());
    this.radii = box.getSize(new Vector3()).multiplyScalar(0.5 * shrink);
  }

  /** How deep `p` (head frame) is inside: < 1 inside, 1 on the surface, > 1 outside. */
  depth(p: Vector3): number {
    const x = (p.x - this.center.x) / this.radii.x;
    const y = (p.y - this.center.y) / this.radii.y;
    const z = (p.z - this.center.z) / this.radii.z;
    return Math.sqrt(x * x + y * y + z * z);
  }

  /** Points of `points` inside the volume. */
  inside(points: readonly Vector3[]): number {
    let n = 0;
    for (const p of points) if (this.depth(p) < 1) n++;
    return n;
  }
}
