/** The `google` AI provider: Gemini through `streamGenerateContent` with server-sent events. */
export { createGoogleProvider, GOOGLE_MODELS, GOOGLE_DEFAULT_BASE_URL } from './google-provider.js';
export type { GoogleProviderSettings } from './google-provider.js';
export { GoogleChatModel } from './google-chat-model.js';
export { convertToGoogleMessages } from './convert-to-google-messages.js';
export { mapGoogleFinishReason } from './map-google-finish-reason.js';
