export interface SseEvent {
  event: string;
  data: unknown;
}

/** Parses a complete SSE body (comments skipped). */
export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() && !block.startsWith(':'))
    .map(parseBlock);
}

function parseBlock(block: string): SseEvent {
  const lines = block.split('\n');
  const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
  const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
  return { event, data: JSON.parse(data) as unknown };
}

/**
 * Reads an SSE response as it arrives, calling `onEvent` per event; resolves with all events
 * when the stream ends. `onEvent` returning `'stop'` cancels the stream (a client going away).
 */
export async function readSse(response: Response, onEvent?: (event: SseEvent) => void | 'stop'): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!block.trim() || block.startsWith(':')) continue;
      const event = parseBlock(block);
      events.push(event);
      if (onEvent?.(event) === 'stop') {
        await reader.cancel();
        return events;
      }
    }
  }
}
