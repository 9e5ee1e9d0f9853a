/**
 * avatar-service core: conversations with 3D AI avatars as a framework-agnostic library.
 * Hosts (the bundled Koa server, or your own app) construct it with `createAvatarService`.
 */
export { createAvatarService } from './avatar-service.js';
export type { AvatarService, AvatarServiceOptions, WebhookOptions } from './avatar-service.js';
export { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from './avatar-service.js';

export * from './errors.js';
export { MIN_SECRET_LENGTH, MIN_RETENTION_MS, absoluteUrlProblem, parseRetention, retentionProblem, secretProblem, unknownIdProblem } from './config/config-rules.js';
export type { Telemetry } from './ports/telemetry.js';
export { noTelemetry } from './ports/telemetry.js';
export { RetentionSweeper, AUDIO_EXPIRED } from './retention/retention-sweeper.js';
export type { RetentionOptions, SweepResult } from './retention/retention-sweeper.js';
export { checkServiceOptions } from './config/check-service-options.js';
export { systemClock, ManualClock, isoTime } from './clock.js';
export type { Clock } from './clock.js';
export { createIdGenerator } from './ids.js';
export type { IdGenerator, IdPrefix, IdGeneratorOptions } from './ids.js';
export { Limits, checkText, countCharacters, isWellFormedText } from './text-limits.js';

export type * from './ports/store.js';
export type * from './ports/blob-store.js';
export { isValidBlobKey } from './ports/blob-store.js';
export { createSqliteStore } from './storage/sqlite/sqlite-store.js';
export type { SqliteStoreSettings } from './storage/sqlite/sqlite-store.js';
export { createPostgresStore, POSTGRES_DEFAULTS } from './storage/postgres/postgres-store.js';
export type { PostgresStoreSettings } from './storage/postgres/postgres-store.js';
export { KyselyStore } from './storage/kysely/kysely-store.js';
export { ConversationVersions, trackConversationWrites } from './storage/conversation-versions.js';
export { ApiKeyCache } from './access/api-key-cache.js';
export type { ApiKeyCacheOptions } from './access/api-key-cache.js';
export { LruCache } from './util/lru-cache.js';
export { FsBlobStore } from './blobs/fs-blob-store.js';

export { AccountService, Tiers } from './accounts/account-service.js';
export type { Principal } from './accounts/principal.js';
export { redactApiKey } from './accounts/api-key-secret.js';

export { AvatarAnimations, isCustomAvatar } from './avatars/avatar.js';
export type { Avatar, CustomAvatar } from './avatars/avatar.js';
export { AvatarCatalog } from './avatars/avatar-catalog.js';
export { AvatarLibrary, AvatarLimits, DEFAULT_AVATAR_MAX_BYTES } from './avatars/avatar-library.js';
export type { AvatarFields, AvatarUpdate, CreateAvatarInput, ReplaceModelInput } from './avatars/avatar-library.js';
export type { AvatarChange } from './avatars/avatar-webhook-data.js';
export { inspectPng, PREVIEW_MAX_BYTES, PREVIEW_MAX_SIDE } from './avatars/png-preview.js';
export type { PngInfo } from './avatars/png-preview.js';
export { avatarPresets } from './avatars/avatar-presets.js';
export { Verticals } from './personas/persona.js';
export type { Persona, Vertical } from './personas/persona.js';
export { personaPresets } from './personas/persona-presets.js';
export { inspectVrm, MAX_VRM_JSON_BYTES } from './avatars/vrm-file.js';
export type { VrmInfo } from './avatars/vrm-file.js';

export { ConversationService } from './conversations/conversation-service.js';
export type {
  CreateConversationInput,
  ReplyOptions,
  StartedReply,
  ConversationListener,
} from './conversations/conversation-service.js';
export type { ReplyEvent, AvatarState, ConversationEvent } from './conversations/reply-event.js';
export { inferReplyEmotion, ReplyEmotions, type ReplyEmotion } from './conversations/reply-emotion.js';

export type * from './providers/chat-model.js';
export { generateText } from './providers/chat-model.js';
export { ProviderRegistry } from './providers/provider-registry.js';
export { ChatCompletionService } from './providers/chat-completion-service.js';
export type { ChatCompletion, ChatCompletionInput, ChatCompletionStream } from './providers/chat-completion-service.js';
export { createLocalProvider } from './providers/local/index.js';
export { createOpenAIProvider, OPENAI_MODELS, createOpenAIModeration } from './providers/openai/index.js';
export type { OpenAIModerationSettings } from './providers/openai/index.js';
export { createAnthropicProvider, ANTHROPIC_MODELS } from './providers/anthropic/index.js';
export { createGoogleProvider, GOOGLE_MODELS } from './providers/google/index.js';
export { createOllamaProvider, OLLAMA_MODELS } from './providers/ollama/index.js';
export { createOpenAICompatibleProvider } from './providers/openai-compatible/index.js';
export type { OpenAICompatibleProviderSettings } from './providers/openai-compatible/index.js';
export type { VendorProviderSettings } from './providers/vendor-provider-settings.js';
export type { VendorHttpSettings, FetchFunction } from './vendor-http/http-settings.js';
export { FallbackChatModel, createFallbackChatModel } from './providers/fallback-chat-model.js';
export type { FallbackChatModelSettings, FallbackEvent } from './providers/fallback-chat-model.js';

export type * from './speech/speech-provider.js';
export { avatarVoices, findAvatarVoice, parseAvatarVoiceId } from './speech/avatar-voices.js';
export type { AvatarVoice, VoiceGender } from './speech/avatar-voices.js';
export { SpeechRegistry, BROWSER_SPEECH } from './speech/speech-registry.js';
export { TtsService, TTS_TEXT_MAX_CHARS, DEFAULT_TTS_VOICE } from './speech/tts-service.js';
export type { Synthesis, SynthesizeInput, CatalogVoice } from './speech/tts-service.js';
export { SentenceSplitter, splitSentences } from './speech/sentence-splitter.js';
export { createLocalSpeechProvider } from './speech/local/index.js';
export { createGoogleSpeechProvider, googleVoiceMap } from './speech/google/index.js';
export type { GoogleSpeechSettings } from './speech/google/index.js';
export { createElevenLabsSpeechProvider, elevenLabsVoiceMap } from './speech/elevenlabs/index.js';
export type { ElevenLabsSpeechSettings } from './speech/elevenlabs/index.js';
export { createOpenAISpeechProvider, openAIVoiceMap } from './speech/openai/index.js';
export type { OpenAISpeechSettings } from './speech/openai/index.js';
export { createFallbackSpeechProvider } from './speech/fallback-speech-provider.js';
export type { FallbackSpeechSettings } from './speech/fallback-speech-provider.js';

export type * from './protocol/realtime-protocol.js';
export { SessionService, SESSION_TTL_DEFAULT_S, SESSION_TTL_MAX_S } from './sessions/session-service.js';
export type { SessionPrincipal, SessionMinter, IssuedSession, CreateSessionInput, SessionConversationChoices } from './sessions/session-service.js';
export { TierLimits, limitsOf } from './access/tier-limits.js';
export type { AccountLimits } from './access/tier-limits.js';
export { MemoryRateLimiter } from './access/rate-limiter.js';
export type { RateLimiter, RateRule, RateDecision } from './access/rate-limiter.js';
export { MemoryConnectionCounter } from './access/connection-counter.js';
export type { ConnectionCounter, ConnectionLease } from './access/connection-counter.js';
export { AccessLimits } from './access/access-limits.js';
export type { MessageBus, Subscription } from './ports/message-bus.js';
export { LocalMessageBus } from './util/local-message-bus.js';
export { openRedis, DEFAULT_LEASE_TTL_MS } from './redis/open-redis.js';
export type { RedisOptions, RedisScaleOut } from './redis/open-redis.js';
export { RedisRateLimiter } from './redis/redis-rate-limiter.js';
export { RedisConnectionCounter } from './redis/redis-connection-counter.js';
export type { RedisConnectionCounterOptions } from './redis/redis-connection-counter.js';
export { RedisMessageBus } from './redis/redis-message-bus.js';
export { UsageService } from './usage/usage-service.js';
export type { UsageReport } from './usage/usage-service.js';

export type * from './ports/mailer.js';
export { EmlFileMailer } from './mail/eml-file-mailer.js';
export { SmtpMailer } from './mail/smtp-mailer.js';
export { WebhookEventTypes, isWebhookEventType } from './webhooks/webhook-events.js';
export type { WebhookEventType, WebhookEventBody } from './webhooks/webhook-events.js';
export { WebhookService, WebhookLimits } from './webhooks/webhook-service.js';
export type { WebhookInput, WebhookUpdate } from './webhooks/webhook-service.js';
export type { Page } from './util/page.js';
export { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
export type { WebhookSender, WebhookDispatcherSettings } from './webhooks/webhook-dispatcher.js';
export { WebhookPoster, signWebhookBody, RESPONSE_BODY_LIMIT } from './webhooks/post-webhook.js';
export type { WebhookRequest, WebhookResponse, WebhookPosterSettings } from './webhooks/post-webhook.js';
export { checkReceiverUrl, forbiddenAddressReason, systemLookup } from './webhooks/address-policy.js';
export type { ReceiverPolicy, LookupAll } from './webhooks/address-policy.js';
export { WebhookOutbox } from './webhooks/webhook-outbox.js';

export { SafetyFilterLevels, SAFETY_LIMITS, DEFAULT_SAFETY, parseSafetySettings } from './safety/safety-settings.js';
export type { SafetyFilterLevel, BlockedTopic, SafetySettings } from './safety/safety-settings.js';
export { checkUserMessage, checkReplySentence, isFrustrated, withModeration, SAFETY_CODE_ORDER } from './safety/safety-check.js';
export type { SafetyCode, SafetyVerdict, EscalationReason } from './safety/safety-check.js';
export { isSevereCategory } from './safety/moderation.js';
export type { ModerationCheck, ModerationResult } from './safety/moderation.js';
