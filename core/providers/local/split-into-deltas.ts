/**
 * Cuts a reply into the small pieces the engine streams: a word or two each, with whitespace kept
 * on the piece it follows, so `deltas.join('') === text` always holds. Two short words travel
 * together ("I am", "of the"), longer words go alone, which looks like a natural typing rhythm.
 */
export function splitIntoDeltas(text: string): string[] {
  const leading = /^\s*/.exec(text)?.[0] ?? '';
  const words = text.slice(leading.length).match(/\S+\s*/g) ?? [];
  const deltas: string[] = [];
  let i = 0;
  while (i < words.length) {
    const word = words[i]!;
    const next = words[i + 1];
    if (next !== undefined && word.trim().length <= 3 && next.trim().length <= 5) {
      deltas.push(word + next);
      i += 2;
    } else {
      deltas.push(word);
      i += 1;
    }
  }
  if (leading.length > 0) {
    if (deltas.length === 0) deltas.push(leading);
    else deltas[0] = leading + deltas[0];
  }
  return deltas;
}
