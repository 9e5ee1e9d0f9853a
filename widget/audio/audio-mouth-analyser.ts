import { closedMouth, MouthVisemes, type MouthViseme, type MouthWeights } from './mouth-weights.js';

/**
 * Loudness below this is a closed mouth, above `OPEN_DB` a fully open one. VRM-NOTES: −34…−12
 * dBFS tracked real speech loudness (r ≈ 0.8); −48…−20 kept the mouth open all the time.
 */
export const MouthLoudness = { closedDb: -34, openDb: -12 } as const;

/** Frequency bands (Hz) whose energy ratios pick the vowel shape. */
const Bands = {
  /** F1 of closed back vowels (u, o) and voicing. */
  low: [90, 450],
  /** F1 of open vowels (a). */
  mid: [450, 1100],
  /** F2 of front vowels (i, e). */
  high: [1500, 4000],
} as const;

export interface SpectralFeatures {
  /** RMS level in dBFS (−Infinity for digital silence). */
  rmsDb: number;
  /** Shares (0…1, summing to ≤ 1) of the energy in the low, mid and high bands. */
  low: number;
  mid: number;
  high: number;
}

/**
 * Maps loudness and band-energy shares to mouth weights. Pure, so the heuristic can be tested
 * without audio. Openness follows loudness; the vowel shape is a soft choice among the five
 * visemes by where the energy sits (open vowels: strong mid band; front vowels: strong high band;
 * rounded vowels: energy in the low band only).
 */
export function mouthFromFeatures(f: SpectralFeatures, out: MouthWeights = closedMouth()): MouthWeights {
  const open = Math.max(0, Math.min(1, (f.rmsDb - MouthLoudness.closedDb) / (MouthLoudness.openDb - MouthLoudness.closedDb)));
  for (const v of MouthVisemes) out[v] = 0;
  if (!(open > 0)) return out;
  const { low, mid, high } = f;
  const scores: Record<MouthViseme, number> = {
    aa: mid * 1.6 - low * 0.4 + 0.15,
    oh: mid * 0.8 + low * 1.2 - high,
    ou: low * 1.5 - mid * 0.9 - high * 0.8,
    // Front vowels: ee has the lowest F1 (little mid energy), ih sits between ee and aa.
    ee: high * 1.6 - mid * 0.6 - low * 0.2,
    ih: high * 0.9 + mid * 0.5 + 0.05,
  };
  // Softmax with a moderate temperature: shapes blend rather than flip frame to frame.
  let sum = 0;
  for (const v of MouthVisemes) {
    const e = Math.exp(scores[v] * 4);
    out[v] = e;
    sum += e;
  }
  for (const v of MouthVisemes) out[v] = (out[v] / sum) * open;
  return out;
}

/**
 * Analyses the audio flowing through `input` (an AnalyserNode; connect sources to it, and it to
 * the output) and returns raw, unsmoothed mouth weights for the current render quantum.
 * Smoothing and latency alignment are the caller's (see `SpeechPlayer`).
 */
export class AudioMouthAnalyser {
  readonly input: AnalyserNode;
  readonly #time: Float32Array<ArrayBuffer>;
  readonly #freq: Float32Array<ArrayBuffer>;
  readonly #binHz: number;

  constructor(context: BaseAudioContext, options: { fftSize?: number } = {}) {
    this.input = context.createAnalyser();
    this.input.fftSize = options.fftSize ?? 1024;
    this.input.smoothingTimeConstant = 0;
    this.input.minDecibels = -100;
    this.input.maxDecibels = 0;
    this.#time = new Float32Array(this.input.fftSize);
    this.#freq = new Float32Array(this.input.frequencyBinCount);
    this.#binHz = context.sampleRate / this.input.fftSize;
  }

  /** Loudness and band shares of the latest `fftSize` samples. */
  features(): SpectralFeatures {
    this.input.getFloatTimeDomainData(this.#time);
    let square = 0;
    for (let i = 0; i < this.#time.length; i++) square += this.#time[i]! * this.#time[i]!;
    const rms = Math.sqrt(square / this.#time.length);
    const rmsDb = rms > 0 ? 20 * Math.log10(rms) : -Infinity;
    if (rmsDb < MouthLoudness.closedDb - 6) return { rmsDb, low: 0, mid: 0, high: 0 };
    this.input.getFloatFrequencyData(this.#freq);
    const energy = (band: readonly [number, number]): number => {
      let e = 0;
      const from = Math.max(1, Math.floor(band[0] / this.#binHz));
      const to = Math.min(this.#freq.length - 1, Math.ceil(band[1] / this.#binHz));
      for (let i = from; i <= to; i++) e += 10 ** (this.#freq[i]! / 10);
      return e;
    };
    const low = energy(Bands.low);
    const mid = energy(Bands.mid);
    const high = energy(Bands.high);
    const total = low + mid + high || 1;
    return { rmsDb, low: low / total, mid: mid / total, high: high / total };
  }

  /** Raw mouth weights of the latest samples. */
  sample(out: MouthWeights = closedMouth()): MouthWeights {
    return mouthFromFeatures(this.features(), out);
  }

  dispose(): void {
    this.input.disconnect();
  }
}
