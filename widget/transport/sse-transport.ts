import type { ApiClient } from './api-client.js';
import { parseSse } from './parse-sse.js';
import { TransportEvents } from './transport-events.js';
import type { ServerEventName, ServerEventPayloads, Transport, TransportListener, WireConversation } from './transport.js';
import { WidgetError } from './transport.js';

const SSE_EVENTS: ReadonlySet<string> = new Set<ServerEventName>(['message', 'audio', 'safety', 'done', 'error']);

/**
 * Replies over `POST /v1/conversations/:id/messages` with `stream: true`: the response body is
 * parsed as SSE while it arrives. Interrupting aborts the request, which the server takes as
 * "cancel generation and synthesis". SSE carries no `state` events; the element derives state
 * from the send and the playback.
 */
export class SseTransport implements Transport {
  private readonly events = new TransportEvents();
  private conversationId: string | undefined;
  private current: AbortController | undefined;

  constructor(private readonly api: ApiClient) {}

  async connect(conversationId: string): Promise<WireConversation | undefined> {
    this.conversationId = conversationId;
    return this.api.getConversation(conversationId);
  }

  async send(content: string): Promise<void> {
    const id = this.conversationId;
    if (!id) throw new WidgetError('invalid_request', 'Not connected to a conversation');
    this.current?.abort();
    const controller = new AbortController();
    this.current = controller;
    void this.stream(id, content, controller);
  }

  private async stream(id: string, content: string, controller: AbortController): Promise<void> {
    try {
      const res = await this.api.streamMessage(id, content, controller.signal);
      for await (const { event, data } of parseSse(res.body!, controller.signal)) {
        if (controller.signal.aborted) return;
        if (!SSE_EVENTS.has(event)) continue;
        this.emit(event as ServerEventName, JSON.parse(data) as ServerEventPayloads[ServerEventName]);
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      this.events.emit('error', WidgetError.from(error).toWire());
    } finally {
      if (this.current === controller) this.current = undefined;
    }
  }

  private emit<K extends ServerEventName>(event: K, data: ServerEventPayloads[K]): void {
    this.events.emit(event, data);
  }

  async interrupt(): Promise<void> {
    this.current?.abort();
    this.current = undefined;
  }

  /** Each reply is its own request: there is no lasting connection to lose. */
  onConnection(): () => void {
    return () => undefined;
  }

  on<K extends ServerEventName>(event: K, listener: TransportListener<K>): () => void {
    return this.events.on(event, listener);
  }

  close(): void {
    this.current?.abort();
    this.current = undefined;
    this.events.clear();
  }
}
