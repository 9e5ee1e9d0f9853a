import { readMp3Info } from '../audio/mp3-info.js';
import { ProviderError } from '../errors.js';

/** A vendor clip's length from its MP3 frames; audio that is not MP3 is the vendor's fault. */
export function vendorMp3DurationMs(provider: string, audio: Uint8Array): number {
  try {
    return readMp3Info(audio).durationMs;
  } catch (error) {
    throw new ProviderError(provider, `returned audio that is not usable MP3: ${error instanceof Error ? error.message : String(error)}`, {
      isRetryable: false,
      cause: error,
    });
  }
}
