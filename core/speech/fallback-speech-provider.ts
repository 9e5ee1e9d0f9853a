import { ErrorCode, isAbortError, ProviderError, ServiceError, ValidationError } from '../errors.js';
import { describeCause } from '../vendor-http/vendor-errors.js';
import type { SpeechProvider, SpeechRequest, SpeechResult, Voice } from './speech-provider.js';

export interface FallbackSpeechSettings {
  /** Engines in the order they are tried; at least one. The first one's voices are listed. */
  providers: readonly SpeechProvider[];
  /** The id this chain is registered under; the first engine's id unless told, so it can stand in for it. */
  id?: string;
  name?: string;
  /** Told about every engine that failed or was skipped before the next one is tried (for logs). */
  onFallback?: (event: { failed: string; next: string; error: unknown }) => void;
}

/**
 * A speech engine made of a chain of engines: each request goes to the first engine that is
 * available, and on failure to the next, until one answers. The result's `provider` names the engine
 * that answered (`engineVoice` its voice), so callers can see a fallback happened.
 *
 * What moves on to the next engine: any failure of the engine — vendor errors after its own
 * retries, timeouts, an engine that is unavailable, a voice it does not know. What does not: a
 * caller abort (rethrown at once; no further engine is started) and text the caller got wrong
 * (`ValidationError` on `text`, which every engine would refuse). When every engine fails, the
 * error is a `ProviderError` listing each engine's reason; when every engine only refused the
 * voice, the first `ValidationError` is rethrown as it is.
 *
 * `close()` closes every engine of the chain; engines' `close()` must be idempotent when they are
 * also registered on their own.
 *
 * @example
 * const speech = createFallbackSpeechProvider({ providers: [google, elevenlabs, local] });
 * const result = await speech.synthesize({ text: 'Hello!', voiceId: 'en-US-Neural2-F' });
 * result.provider; // 'elevenlabs' when Google failed
 */
export function createFallbackSpeechProvider(settings: FallbackSpeechSettings): SpeechProvider {
  const providers = Object.freeze([...settings.providers]);
  const first = providers[0];
  if (!first) throw new RangeError('a fallback speech chain needs at least one provider');
  const id = settings.id ?? first.id;
  const name = settings.name ?? providers.map((p) => p.name).join(' → ');
  const onFallback = settings.onFallback;

  return {
    id,
    name,

    async available() {
      const answers = await Promise.all(providers.map((p) => p.available().catch(() => false)));
      return answers.some(Boolean);
    },

    voices(): readonly Voice[] {
      return first.voices();
    },

    /** The voice of the first engine of the chain that can speak `voiceId`. */
    engineVoiceFor(voiceId) {
      let refusal: unknown;
      for (const provider of providers) {
        try {
          return provider.engineVoiceFor(voiceId);
        } catch (error) {
          refusal ??= error;
        }
      }
      throw refusal;
    },

    async synthesize(request: SpeechRequest): Promise<SpeechResult> {
      const failures: { provider: string; error: unknown }[] = [];
      for (const [index, provider] of providers.entries()) {
        if (request.signal?.aborted) throw abortReason(request.signal);
        let error: unknown;
        if (await provider.available().catch(() => false)) {
          try {
            const result = await provider.synthesize(request);
            return { ...result, provider: result.provider ?? provider.id };
          } catch (caught) {
            if (request.signal?.aborted || isAbortError(caught)) throw caught;
            if (caught instanceof ValidationError && caught.field === 'text') throw caught;
            error = caught;
          }
        } else {
          error = new ServiceError(ErrorCode.unavailable, `${provider.id}: not available (no credentials, or engine not installed)`);
        }
        failures.push({ provider: provider.id, error });
        const next = providers[index + 1];
        if (next) onFallback?.({ failed: provider.id, next: next.id, error });
      }
      throw chainError(id, failures);
    },

    async close() {
      await Promise.all(providers.map((p) => p.close()));
    },
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The speech request was aborted', 'AbortError');
}

function chainError(id: string, failures: readonly { provider: string; error: unknown }[]): Error {
  const errors = failures.map((f) => f.error);
  const refusedVoice = errors.find((e) => e instanceof ValidationError);
  if (refusedVoice && errors.every((e) => e instanceof ValidationError)) return refusedVoice as ValidationError;
  if (errors.every((e) => e instanceof ServiceError && e.code === ErrorCode.unavailable)) {
    return new ServiceError(ErrorCode.unavailable, `No speech engine of ${failures.map((f) => f.provider).join(', ')} is available`);
  }
  // Each member's message already starts with its own id ("google: HTTP 503 …").
  const reasons = failures.map((f) => {
    const text = f.error instanceof Error ? f.error.message : describeCause(f.error);
    return text.startsWith(`${f.provider}:`) ? text : `${f.provider}: ${text}`;
  });
  const retryable = errors.some((e) => e instanceof ServiceError && e.isRetryable);
  return new ProviderError(id, `every speech engine failed — ${reasons.join('; ')}`, {
    isRetryable: retryable,
    cause: new AggregateError(errors, 'speech fallback chain failed'),
  });
}
