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
  // Every member read through from the provider (some change, e.g. `configured`), `chatModel` observed.
  return {
    get id() {
      return provider.id;
    },
    get name() {
      return provider.name;
    },
    get description() {
      return provider.description;
    },
    get kind() {
      return provider.kind;
    },
    get configured() {
      return provider.configured;
    },
    get models() {
      return provider.models;
    },
    get anyModel() {
      return provider.anyModel;
    },
    get defaultModel() {
      return provider.defaultModel;
    },
    chatModel: (modelId?: string) => observedChatModel(provider.chatModel(modelId), telemetry),
  };
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
  return {
    get id() {
      return provider.id;
    },
    get name() {
      return provider.name;
    },
    available: () => provider.available(),
    voices: () => provider.voices(),
    engineVoiceFor: (voiceId) => provider.engineVoiceFor(voiceId),
    close: () => provider.close(),
    async synthesize(request: SpeechRequest): Promise<SpeechResult> {
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
  };
}
