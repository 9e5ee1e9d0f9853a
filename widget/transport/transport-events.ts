import type { ServerEventName, ServerEventPayloads, TransportListener } from './transport.js';

/**
 * The listener registry every transport shares: typed per event, owned by one transport instance
 * (never module-level), and emptied on close.
 */
export class TransportEvents {
  private readonly listeners = new Map<ServerEventName, Set<(data: never) => void>>();

  on<K extends ServerEventName>(event: K, listener: TransportListener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (data: never) => void);
    return () => set.delete(listener as (data: never) => void);
  }

  emit<K extends ServerEventName>(event: K, data: ServerEventPayloads[K]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      (listener as TransportListener<K>)(data);
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
