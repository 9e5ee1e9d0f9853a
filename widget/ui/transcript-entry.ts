/** One line of the transcript. */
export interface TranscriptEntry {
  /** Local key (stable across re-renders). */
  key: number;
  role: 'user' | 'assistant' | 'notice';
  text: string;
  /** `streaming` while the reply arrives. */
  status: 'streaming' | 'done' | 'interrupted' | 'error';
  /** The stored message id, once known. */
  id?: string;
  /**
   * How much of `text` is on screen: replies with server speech are revealed sentence by sentence
   * as each one starts to sound. The rest is still in the DOM for screen readers. Undefined: all.
   */
  shown?: number;
}
