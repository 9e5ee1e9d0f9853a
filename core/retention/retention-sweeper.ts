import type { Clock } from '../clock.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Store } from '../ports/store.js';
import type { ConversationService } from '../conversations/conversation-service.js';
import { deleteReplyAudio } from '../conversations/speech-pipeline.js';
import { isServiceError } from '../errors.js';

/** How long data is kept (docs: README, Retention); a period left out keeps that data for ever. */
export interface RetentionOptions {
  /** Reply audio older than this is deleted; the message keeps its text, with `audio_error` saying why. */
  audioMs?: number;
  /** Conversations not updated for this long are deleted with their messages and audio. */
  conversationsMs?: number;
  /** How often a sweep runs. Default 10 minutes. */
  intervalMs?: number;
}

/** The note a reply whose audio was swept carries (its `audio_error`). */
export const AUDIO_EXPIRED = 'the audio was deleted when its retention period ended';

/** Rows handled per store query: a sweep never holds much in memory or a transaction for long. */
const BATCH = 100;

export interface SweepResult {
  audioDeleted: number;
  conversationsDeleted: number;
}

interface SweeperDeps {
  store: Store;
  blobs: BlobStore;
  clock: Clock;
  conversations: ConversationService;
  options: RetentionOptions;
  onError?: (message: string, error?: unknown) => void;
}

/**
 * Deletes what is past its retention period, in batches, through the Store port only (so on any
 * engine). Every node may run it at once: each step is idempotent and ordered so that a crash or a
 * second sweeper never leaves a reference to something gone — a reply's audio files are deleted
 * before its row forgets them (a sweep that stops in between finds the row again, and deleting a
 * missing file is no error), and a conversation is deleted as `conversations.delete` does it (a
 * conversation another node deleted first is skipped).
 */
export class RetentionSweeper {
  readonly #deps: SweeperDeps;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<SweepResult> | undefined;
  #closed = false;

  constructor(deps: SweeperDeps) {
    this.#deps = deps;
  }

  get enabled(): boolean {
    const { audioMs, conversationsMs } = this.#deps.options;
    return audioMs !== undefined || conversationsMs !== undefined;
  }

  start(): void {
    if (!this.enabled) return;
    const intervalMs = this.#deps.options.intervalMs ?? 10 * 60_000;
    this.#timer = setInterval(() => {
      if (!this.#running) void this.sweep();
    }, intervalMs);
    this.#timer.unref();
    void this.sweep();
  }

  /**
   * One sweep as of now, after the one running (if any) ends, so what it reports is measured from
   * the time it was asked for; never throws — failures go to `onError`.
   */
  sweep(): Promise<SweepResult> {
    const next = (this.#running ?? Promise.resolve()).then(() =>
      this.#sweep().catch((error: unknown) => {
        this.#deps.onError?.('the retention sweep failed; the next one tries again', error);
        return { audioDeleted: 0, conversationsDeleted: 0 };
      }),
    );
    this.#running = next;
    void next.finally(() => {
      if (this.#running === next) this.#running = undefined;
    });
    return next;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
  }

  async #sweep(): Promise<SweepResult> {
    const { audioMs, conversationsMs } = this.#deps.options;
    const now = this.#deps.clock.now();
    const conversationsDeleted = conversationsMs === undefined ? 0 : await this.#sweepConversations(now - conversationsMs);
    const audioDeleted = audioMs === undefined ? 0 : await this.#sweepAudio(now - audioMs);
    return { audioDeleted, conversationsDeleted };
  }

  async #sweepConversations(before: number): Promise<number> {
    const { store, conversations } = this.#deps;
    let deleted = 0;
    while (!this.#closed) {
      const batch = await store.conversations.listUpdatedBefore(before, BATCH);
      for (const conversation of batch) {
        if (this.#closed) break;
        try {
          await conversations.delete({ accountId: conversation.accountId, mode: conversation.mode }, conversation.id);
          deleted++;
        } catch (error) {
          if (!(isServiceError(error) && error.code === 'not_found')) throw error; // another node was first
        }
      }
      if (batch.length < BATCH) break;
    }
    return deleted;
  }

  async #sweepAudio(before: number): Promise<number> {
    const { store, blobs } = this.#deps;
    let deleted = 0;
    while (!this.#closed) {
      const batch = await store.messages.listWithAudioBefore(before, BATCH);
      for (const message of batch) {
        if (this.#closed) break;
        await deleteReplyAudio(blobs, message.audioBase!);
        await store.messages.update(message.id, { audioKey: null, audioBase: null, audioError: AUDIO_EXPIRED });
        deleted++;
      }
      if (batch.length < BATCH) break;
    }
    return deleted;
  }
}
