import type { Redis } from 'ioredis';
import type { MessageBus, Subscription } from '../ports/message-bus.js';

/**
 * The message bus of several processes: Redis pub/sub, publishing on the shared client and
 * listening on a connection of its own (a subscribed connection can do nothing else). Channels
 * carry the deployment's prefix.
 */
export class RedisMessageBus implements MessageBus {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #prefix: string;
  readonly #handlers = new Map<string, Set<(message: string) => void>>();

  constructor(publisher: Redis, subscriber: Redis, prefix: string) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#prefix = prefix;
    subscriber.on('message', (channel: string, message: string) => {
      for (const handler of [...(this.#handlers.get(channel) ?? [])]) handler(message);
    });
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#publisher.publish(this.#prefix + channel, message);
  }

  subscribe(channel: string, handler: (message: string) => void): Subscription {
    const name = this.#prefix + channel;
    let handlers = this.#handlers.get(name);
    if (!handlers) this.#handlers.set(name, (handlers = new Set()));
    const wrapped = (message: string) => handler(message);
    handlers.add(wrapped);
    // SUBSCRIBE again for a channel already listened to is harmless, and confirms it for this caller.
    const ready = this.#subscriber.subscribe(name).then(() => undefined);
    return {
      ready,
      close: async () => {
        handlers.delete(wrapped);
        if (handlers.size > 0 || this.#handlers.get(name) !== handlers) return;
        this.#handlers.delete(name);
        await this.#subscriber.unsubscribe(name);
      },
    };
  }
}
