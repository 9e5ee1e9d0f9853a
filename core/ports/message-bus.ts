/** A subscription of a {@link MessageBus}: `ready` resolves once messages published afterwards are sure to arrive. */
export interface Subscription {
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Broadcasts between the processes of one deployment: in memory for one process
 * (`LocalMessageBus`), Redis pub/sub for several (`openRedis`). Every subscriber of a channel —
 * the publishing process's own included — receives every message published on it after its
 * subscription is ready, in publishing order per publisher. Delivery is at most once: a process
 * that is down or disconnected misses what was published meanwhile.
 */
export interface MessageBus {
  publish(channel: string, message: string): Promise<void>;
  /** Registers `handler` at once; the returned subscription's `ready` says when the engine confirmed it. */
  subscribe(channel: string, handler: (message: string) => void): Subscription;
}
