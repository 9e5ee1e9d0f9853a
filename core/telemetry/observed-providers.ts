import type { Telemetry } from '../ports/telemetry.js';
import type { AIProvider, ChatModel, ChatRequest, ChatStreamPart } from '../providers/chat-model.js';
import type { SpeechProvider, SpeechRequest, SpeechResult } from '../speech/speech-provider.js';

const seconds = (since: number) => (performance.now() - since) / 1000;

/**
 * The provider as it is, but every completion of its models is timed for `telemetry`: the time to
 * the first text, and the whole call with its outcome (an `error` part or a throw is an error; a
 * call the caller aborted or stopped reading is not the vendor's failure and counts as ok).
 */
export function observedAiProvider(provider: AIProvider, telemetry: Telemetry): AIProvider {
  return forwarding(provider, {
    chatModel: (modelId?: string) => observedChatModel(provider.chatModel(modelId), telemetry),
  });
}

function observedChatModel(model: ChatModel, telemetry: Telemetry): ChatModel {
  return {
    provider: model.provider,
    modelId: model.modelId,
    stream: (request: ChatRequest) => observedStream(model, request, telemetry),
  };
}

async function* observedStream(model: ChatModel, request: ChatRequest, telemetry: Telemetry): AsyncGenerator<ChatStreamPart> {
  const started = performance.now();
  let first = true;
  let failed = false;
  try {
    for await (const part of model.stream(request)) {
      if (part.type === 'text-delta' && first) {
        first = false;
        telemetry.firstToken(model.provider, seconds(started));
      } else if (part.type === 'error' || (part.type === 'finish' && part.finishReason === 'error')) {
        failed = !request.signal?.aborted;
      }
      yield part;
    }
  } catch (error) {
    failed = !request.signal?.aborted;
    throw error;
  } finally {
    telemetry.vendorCall({ kind: 'ai', provider: model.provider, seconds: seconds(started), outcome: failed ? 'error' : 'ok' });
  }
}

/** The engine as it is, but every synthesis is timed for `telemetry` with its outcome (an aborted one is not an error). */
export function observedSpeechProvider(provider: SpeechProvider, telemetry: Telemetry): SpeechProvider {
  return forwarding(provider, {
    synthesize: async (request: SpeechRequest): Promise<SpeechResult> => {
      const started = performance.now();
      let outcome: 'ok' | 'error' = 'ok';
      try {
        return await provider.synthesize(request);
      } catch (error) {
        if (!request.signal?.aborted) outcome = 'error';
        throw error;
      } finally {
        telemetry.vendorCall({ kind: 'speech', provider: provider.id, seconds: seconds(started), outcome });
      }
    },
  });
}

/**
 * `target` with some methods replaced. Providers are often class instances with private fields
 * and getters, so every other property is read from, and every other method bound to, the target.
 */
function forwarding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value = Reflect.get(object, property, object) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}
