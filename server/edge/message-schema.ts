import { Limits } from '../../core/index.js';
import { s } from '../schema/schema.js';

/** The user's message: one rule for REST bodies, socket.io `message` events and WebSocket frames. */
export const messageContent = s.string({ min: 1, max: Limits.contentMaxChars, description: "The user's message" });

/** The data of a realtime `message` (socket.io event or WebSocket frame). */
export const realtimeMessage = s.object({ content: messageContent });

/** The data of a socket.io `join`. */
export const realtimeJoin = s.object({ conversation_id: s.string({ min: 1, max: 64, description: 'The conversation to join' }) });
