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
}
