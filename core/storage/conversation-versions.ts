import type { ConversationRepository, MessageRecord, MessageRepository, Store } from '../ports/store.js';
import { LruCache } from '../util/lru-cache.js';

/**
 * A version number per conversation, changed by every write to the conversation or to any of
 * its messages made through this process's store — what a cache of a conversation's read
 * (server/edge/representation-cache.ts) is keyed by. Numbers are process-local and never reused:
 * a conversation this object has forgotten (it keeps `maxEntries`) gets a fresh number, so a
 * cached read can only ever be stale towards a *newer* number, never served for an old one.
 *
 * Writes by other processes are not seen here: {@link invalidate} is the hook a pub/sub
 * subscriber calls with the ids other processes publish ({@link onChange} is the publishing
 * side); until one is plugged in, readers bound their staleness with a time to live.
 */
export class ConversationVersions {
  readonly #versions: LruCache<string, number>;
  readonly #listeners = new Set<(conversationId: string | undefined) => void>();
  #next = 0;

  constructor(maxEntries = 100_000) {
    this.#versions = new LruCache({ maxEntries });
  }

  /** The current version of a conversation (a number no earlier write of it ever had). */
  of(conversationId: string): number {
    let version = this.#versions.get(conversationId);
    if (version === undefined) {
      version = ++this.#next;
      this.#versions.set(conversationId, version);
    }
    return version;
  }

  /** A conversation changed (or, without an id, possibly any conversation). */
  changed(conversationId: string | undefined): void {
    this.invalidate(conversationId);
    for (const listener of this.#listeners) listener(conversationId);
  }

  /** Marks a conversation (without an id: every conversation) changed, telling no listener: for news from other processes. */
  invalidate(conversationId: string | undefined): void {
    if (conversationId === undefined) this.#versions.clear();
    else this.#versions.set(conversationId, ++this.#next);
  }

  /** Observes the changes made through this process (e.g. to publish them to other processes). */
  onChange(listener: (conversationId: string | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/**
 * The store with every write to conversations and messages reported to `versions` — after the
 * write, and again after the transaction it was part of ends (commit or rollback), so a read
 * that raced the write is never cached under the version that follows it.
 *
 * The writes are all on two repositories (messages reach the store nowhere else; the foreign
 * key's cascade deletes messages only with their conversation, itself a write here). A message
 * written by id alone (`update`, `delete`) is traced to its conversation through the messages
 * this process has stored lately (a reply is created, then updated as it grows) or found by
 * status (crash recovery); an untraceable one changes every conversation. Reads on the request
 * path record nothing: they stay as cheap as the store's.
 */
export function trackConversationWrites(store: Store, versions: ConversationVersions): Store {
  const conversationOf = new LruCache<string, string>({ maxEntries: 100_000 });
  const seen = (messages: MessageRecord[]) => {
    for (const message of messages) conversationOf.set(message.id, message.conversationId);
    return messages;
  };
  const wrap = (inner: Store, touched: Set<string | undefined> | undefined): Store => {
    const changed = (conversationId: string | undefined) => {
      versions.changed(conversationId);
      touched?.add(conversationId);
    };
    const written = <A extends unknown[]>(write: (...args: A) => Promise<void>, conversationIdOf: (...args: A) => string | undefined) =>
      async (...args: A): Promise<void> => {
        try {
          await write(...args);
        } finally {
          changed(conversationIdOf(...args));
        }
      };
    const c = inner.conversations;
    const conversations: ConversationRepository = {
      ...c,
      create: written(c.create, (conversation) => conversation.id),
      update: written(c.update, (id) => id),
      addUsage: written(c.addUsage, (id) => id),
      delete: written(c.delete, (id) => id),
    };
    const m = inner.messages;
    const messages: MessageRepository = {
      ...m,
      create: written(m.create, (message) => {
        conversationOf.set(message.id, message.conversationId);
        return message.conversationId;
      }),
      update: written(m.update, (id) => conversationOf.get(id)),
      delete: written(m.delete, (id) => conversationOf.get(id)),
      deleteByConversation: written(m.deleteByConversation, (id) => id),
      listByStatus: async (status, limit) => seen(await m.listByStatus(status, limit)),
    };
    return {
      accounts: inner.accounts,
      apiKeys: inner.apiKeys,
      conversations,
      messages,
      usage: inner.usage,
      avatars: inner.avatars,
      webhooks: inner.webhooks,
      webhookDeliveries: inner.webhookDeliveries,
      async transaction(work) {
        const inTransaction = new Set<string | undefined>();
        try {
          return await inner.transaction((tx) => work(wrap(tx, inTransaction)));
        } finally {
          for (const id of inTransaction) changed(id);
        }
      },
      migrate: () => inner.migrate(),
      problem: () => inner.problem(),
      close: () => inner.close(),
    };
  };
  return wrap(store, undefined);
}
