import type { WidgetError } from '../transport/transport.js';

/**
 * What the element is doing, shown on its stage and reported by `avatar-status`: `connecting`
 * (session, conversation, model), `ready`, `reconnecting` (the live connection dropped; retrying
 * by itself), `offline` (the service cannot be reached; Retry), `expired` (the session token is
 * no longer accepted; Retry asks the host for a new one), `failed` (anything else that stops it
 * starting; Retry), `ended` (the conversation is over).
 */
export type WidgetStatus = 'connecting' | 'ready' | 'reconnecting' | 'offline' | 'expired' | 'failed' | 'ended';

/** Statuses the element can leave by starting again (the Retry button). */
export const RETRYABLE: ReadonlySet<WidgetStatus> = new Set(['offline', 'expired', 'failed']);

export interface StatusView {
  status: WidgetStatus;
  message: string;
}

/** The status a failure to start leaves the element in, in words a visitor understands. */
export function setupFailure(error: WidgetError): StatusView {
  switch (error.code) {
    case 'unauthorized':
      return { status: 'expired', message: 'This chat session has expired or is not allowed on this page.' };
    case 'not_found':
      return { status: 'failed', message: 'This avatar or conversation could not be found.' };
    case 'rate_limited':
    case 'too_many_connections':
      return { status: 'failed', message: 'Too many conversations at once. Please try again in a moment.' };
    case 'network_error':
      return { status: 'offline', message: "The avatar service can't be reached right now." };
    default:
      return (error.status ?? 0) >= 500
        ? { status: 'offline', message: 'The avatar service is having trouble right now.' }
        : { status: 'failed', message: `The avatar could not start: ${error.message}` };
  }
}

/** A failed turn, said plainly (shown as the element's notice, never as the avatar's words). */
export function turnFailure(code: string, message: string): string {
  switch (code) {
    case 'network_error':
      return "Your message couldn't be sent: the connection is down.";
    case 'provider_error':
      return "The avatar couldn't answer just now. Please try again.";
    case 'rate_limited':
      return 'Too many messages in a short time. Please wait a moment and try again.';
    case 'conversation_busy':
      return 'The avatar is still answering. Wait for it, or press Stop.';
    case 'unauthorized':
      return 'This chat session has expired.';
    default:
      return `Something went wrong: ${message}`;
  }
}

/** Microphone and speech problems, with what a visitor can do about them. */
export function deviceProblem(code: string, message: string): string {
  switch (code) {
    case 'microphone_denied':
      return "Microphone access is blocked. Allow it for this site in your browser's settings (the icon next to the address), then press Mic again.";
    case 'microphone_missing':
      return 'No microphone was found. Connect one, or type your message.';
    case 'audio_error':
      return "The avatar's voice could not be played; its replies are shown as text.";
    default:
      return message;
  }
}
