import type { AvatarService } from '../../core/index.js';
import { s } from '../schema/schema.js';

/**
 * The body fields that choose a new conversation's avatar, persona and speech engine, defined
 * once for `POST /v1/conversations`, `POST /v1/sessions` and `POST /demo/session`, so the three
 * take the same names, types and documentation. Whether a value is usable (an avatar of the
 * caller, a known persona, an engine that can speak now) is decided by the core, in
 * `ConversationService.create`, which all three reach.
 */
export function conversationChoiceFields(service: AvatarService) {
  return {
    avatar_id: s.string({ min: 1, max: 64, description: 'Avatar to talk with, e.g. luna-001', example: 'luna-001' }),
    persona_id: s.optional(s.string({ min: 1, max: 64, description: 'Persona preset whose role the avatar plays' })),
    tts_provider: s.optional(s.enum(service.speech.ids(), `Default: ${service.speech.defaultId}`)),
  };
}
