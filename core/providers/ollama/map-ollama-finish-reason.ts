import type { FinishReason } from '../chat-model.js';

/** Ollama's `done_reason` in the contract's terms. */
export function mapOllamaFinishReason(reason: string | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    default:
      return 'other'; // load, unload
  }
}
