import type { MessageBus, Subscription } from '../ports/message-bus.js';

/** The message bus of a single process: `publish` calls this process's handlers before it returns. */
export class LocalMessageBus implements MessageBus {
  readonly #handlers = new Map<string, Set<(message: string) => void>>();

  async publish(channel: string, message: string): Promise<void> {
    for (const handler of [...(this.#handlers.get(channel) ?? [])]) handler(message);
  }

  subscribe(channel: string, handler: (message: string) => void): Subscription {
    let handlers = this.#handlers.get(channel);
    if (!handlers) this.#handlers.set(channel, (handlers = new Set()));
    const wrapped = (message: string) => handler(message);
    handlers.add(wrapped);
    return {
      ready: Promise.resolve(),
      close: async () => {
        handlers.delete(wrapped);
        if (handlers.size === 0 && this.#handlers.get(channel) === handlers) this.#handlers.delete(channel);
      },
    };
  }
}
