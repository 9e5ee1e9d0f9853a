/**
 * A newline-delimited JSON decoder (one JSON value per line, as Ollama streams) that accepts the
 * body in arbitrary pieces, including splits inside a multi-byte UTF-8 character. Lines are
 * returned as text; the caller parses them so that it can report malformed lines in its own terms.
 */
export class NdjsonDecoder {
  readonly #text = new TextDecoder('utf-8');
  #buffer = '';

  /** Decodes one chunk; returns the complete, non-blank lines it finished (without `\r\n`). */
  push(chunk: Uint8Array): string[] {
    this.#buffer += this.#text.decode(chunk, { stream: true });
    const lines: string[] = [];
    let newline = this.#buffer.indexOf('\n');
    while (newline !== -1) {
      const line = this.#buffer.slice(0, newline).replace(/\r$/, '');
      this.#buffer = this.#buffer.slice(newline + 1);
      if (line.trim().length > 0) lines.push(line);
      newline = this.#buffer.indexOf('\n');
    }
    return lines;
  }

  /** Ends the stream; a last line without its newline still counts. */
  end(): string[] {
    this.#buffer += this.#text.decode();
    const rest = this.#buffer.replace(/\r$/, '');
    this.#buffer = '';
    return rest.trim().length > 0 ? [rest] : [];
  }
}

/** Decodes an async sequence of body chunks into NDJSON lines (text, not yet parsed). */
export async function* decodeNdjson(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new NdjsonDecoder();
  for await (const chunk of chunks) yield* decoder.push(chunk);
  yield* decoder.end();
}
