/**
 * A binary image (row 0 at the top), made from RGBA pixels by a test per pixel; what the art
 * test counts, compares and measures.
 */
export class PixelMask {
  readonly width: number;
  readonly height: number;
  readonly bits: Uint8Array;

  constructor(width: number, height: number, bits: Uint8Array) {
    this.width = width;
    this.height = height;
    this.bits = bits;
  }

  /** From RGBA pixels read with WebGL (row 0 at the bottom). */
  static fromGl(rgba: Uint8Array, width: number, height: number, test: (r: number, g: number, b: number, a: number) => boolean): PixelMask {
    const bits = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = ((height - 1 - y) * width + x) * 4;
        bits[y * width + x] = test(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!, rgba[i + 3]!) ? 1 : 0;
      }
    }
    return new PixelMask(width, height, bits);
  }

  count(): number {
    let n = 0;
    for (const b of this.bits) n += b;
    return n;
  }

  /** Intersection over union with a mask of the same size (1 when both are empty). */
  iou(other: PixelMask): number {
    let both = 0;
    let either = 0;
    for (let i = 0; i < this.bits.length; i++) {
      both += this.bits[i]! & other.bits[i]!;
      either += this.bits[i]! | other.bits[i]!;
    }
    return either === 0 ? 1 : both / either;
  }

  /** Widest horizontal extent of set pixels in any one row (first to last set pixel), in pixels. */
  widestRow(): number {
    let widest = 0;
    for (let y = 0; y < this.height; y++) {
      let first = -1;
      let last = -1;
      for (let x = 0; x < this.width; x++) {
        if (!this.bits[y * this.width + x]) continue;
        if (first < 0) first = x;
        last = x;
      }
      if (first >= 0) widest = Math.max(widest, last - first + 1);
    }
    return widest;
  }
}
