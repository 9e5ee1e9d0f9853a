export { createLocalSpeechProvider, type LocalSpeechSettings } from './local-speech-provider.js';
export { localVoices, resolveLocalVoice, type LocalVoice } from './local-voices.js';
export { ipaToVisemeSlots, splitIpaPhonemes, type PhonemeSlot } from './ipa-visemes.js';
export { buildVisemeTimeline, type VisemeTimelineInput } from './phoneme-viseme-timeline.js';
export { SpeechWorkerPool, abortReason, type SpeechWorkerPoolSettings } from './speech-worker-pool.js';
export { EspeakRuntime, type EspeakOutput } from './espeak-runtime.js';
export { synthesizeClip } from './synthesize-clip.js';
export type { ClipRequest, ClipResult, SpeechWorkerData, WorkerRequest, WorkerResponse } from './worker-protocol.js';
