/**
 * A Server-Sent Events decoder (WHATWG HTML §9.2 "event stream interpretation") that accepts the
 * body in arbitrary pieces: a chunk may end mid-line, mid-field, inside a multi-byte UTF-8
 * character, or between the CR and LF of a CRLF. Gemini ends lines with CRLF, OpenAI and Anthropic
 * with LF; all three are handled the same way.
 */

/** One dispatched event. `event` is `message` when the stream named none. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** Incremental decoder: `push` bytes as they arrive, `end` once the body is finished. */
export class SseDecoder {
  readonly #text = new TextDecoder('utf-8');
  #buffer = '';
  #skipLeadingLf = false;
  #event = '';
  #data: string[] = [];
  #id: string | undefined;

  /** Decodes one body chunk; returns the events completed by it (often none, sometimes many). */
  push(chunk: Uint8Array): SseEvent[] {
    return this.#lines(this.#text.decode(chunk, { stream: true }));
  }

  /**
   * Ends the stream. The standard drops an event that lacks its closing blank line; we dispatch it
   * when it carries data, since some servers omit the final blank line before closing.
   */
  end(): SseEvent[] {
    const events = this.#lines(this.#text.decode());
    if (this.#buffer.length > 0) {
      this.#field(this.#buffer);
      this.#buffer = '';
    }
    const last = this.#dispatch();
    if (last) events.push(last);
    return events;
  }

  #lines(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    let input = text;
    if (this.#skipLeadingLf && input.length > 0) {
      if (input.startsWith('\n')) input = input.slice(1);
      this.#skipLeadingLf = false;
    }
    // The buffer holds only an unfinished line (no CR / LF), so scanning resumes where it ended:
    // a long line arriving in many small chunks costs linear, not quadratic, time.
    let i = this.#buffer.length;
    this.#buffer += input;
    let start = 0;
    for (; i < this.#buffer.length; i++) {
      const ch = this.#buffer.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      const line = this.#buffer.slice(start, i);
      if (ch === 13) {
        if (i + 1 < this.#buffer.length) {
          if (this.#buffer.charCodeAt(i + 1) === 10) i++;
        } else {
          // CR at the very end of what we have: its LF may be the first byte of the next chunk.
          this.#skipLeadingLf = true;
        }
      }
      start = i + 1;
      if (line.length === 0) {
        const event = this.#dispatch();
        if (event) events.push(event);
      } else {
        this.#field(line);
      }
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }

  #field(line: string): void {
    if (line.startsWith(':')) return; // comment / keep-alive
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (name) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.#id = value;
        break;
      default:
        break; // `retry` and unknown fields are ignored
    }
  }

  #dispatch(): SseEvent | undefined {
    const data = this.#data;
    const event = this.#event;
    this.#data = [];
    this.#event = '';
    if (data.length === 0) return undefined;
    return {
      event: event || 'message',
      data: data.join('\n'),
      ...(this.#id === undefined ? {} : { id: this.#id }),
    };
  }
}

/** Decodes an async sequence of body chunks into SSE events. */
export async function* decodeSse(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new SseDecoder();
  for await (const chunk of chunks) yield* decoder.push(chunk);
  yield* decoder.end();
}
