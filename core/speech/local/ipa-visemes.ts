import type { VisemeName } from '../speech-provider.js';

/**
 * One mouth shape a phoneme asks for, with a relative duration (espeak-ng's IPA output carries no
 * timings, so durations are typical proportions: a vowel 1, a long vowel 1.6, a consonant 0.55).
 */
export interface PhonemeSlot {
  viseme: VisemeName;
  /** Relative duration; only ratios within a clause matter. */
  duration: number;
  /** How open the mouth is for this sound, 0…1, before loudness is applied. */
  openness: number;
}

/** Vowel qualities grouped by the VRM mouth shape that looks most like them. */
const vowelVisemes: Readonly<Record<string, VisemeName>> = {
  a: 'aa', ɑ: 'aa', æ: 'aa', ɐ: 'aa', ʌ: 'aa', ɶ: 'aa',
  ɪ: 'ih', ɨ: 'ih', ə: 'ih', ɚ: 'ih', ɜ: 'ih', ɝ: 'ih', ɘ: 'ih',
  i: 'ee', e: 'ee', ɛ: 'ee',
  u: 'ou', ʊ: 'ou', y: 'ou', ʏ: 'ou', ɯ: 'ou', ʉ: 'ou',
  o: 'oh', ɔ: 'oh', ɒ: 'oh', ɵ: 'oh', ø: 'oh', œ: 'oh', ɤ: 'oh',
};

const vowelOpenness: Readonly<Record<VisemeName, number>> = { aa: 1, oh: 0.85, ou: 0.65, ee: 0.65, ih: 0.55, sil: 0 };

/** Consonants with a distinctive lip shape; every other consonant is a slightly open `ih`. */
const consonantVisemes: Readonly<Record<string, VisemeName>> = {
  p: 'sil', b: 'sil', m: 'sil', // lips closed
  w: 'ou', ʍ: 'ou', ɥ: 'ou', ʃ: 'ou', ʒ: 'ou', ɕ: 'ou', ʑ: 'ou', // lips rounded / protruded
  j: 'ee',
};

const stressMarks = new Set(['ˈ', 'ˌ']);
const lengthMarks = new Set(['ː', 'ˑ']);
const zeroWidthJoiner = '\u200d';

/** Diacritics and modifier letters that belong to the phoneme before them (ã, kʰ, ɯᵝ, …). */
function isModifier(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return (cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x02b0 && cp <= 0x02ff) || (cp >= 0x1d2c && cp <= 0x1d6a) || cp === 0x207f;
}

function isLetter(ch: string): boolean {
  return /\p{L}/u.test(ch);
}

/** Splits one line of espeak-ng `--ipa=3` output into phonemes (ties are zero-width joiners). */
export function splitIpaPhonemes(ipa: string): { sounds: string[]; long: boolean }[] {
  const phonemes: { sounds: string[]; long: boolean }[] = [];
  const chars = [...ipa.normalize('NFD')];
  let joinNext = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '(') {
      // "(en)" marks a switch of language inside the text; it is not spoken.
      while (i < chars.length && chars[i] !== ')') i++;
      continue;
    }
    const current = phonemes[phonemes.length - 1];
    if (ch === zeroWidthJoiner) {
      joinNext = current !== undefined;
    } else if (lengthMarks.has(ch)) {
      if (current) current.long = true;
    } else if (stressMarks.has(ch) || isModifier(ch) || !isLetter(ch)) {
      // stress, diacritics, spaces, punctuation: no sound of their own
    } else if (joinNext && current) {
      current.sounds.push(ch);
      joinNext = false;
    } else {
      phonemes.push({ sounds: [ch], long: false });
      joinNext = false;
    }
  }
  return phonemes;
}

/**
 * Maps one clause of espeak-ng IPA to viseme slots. A diphthong (`a‍ʊ`) becomes one slot per vowel
 * so the mouth moves through both; an affricate (`t‍ʃ`) takes the shape of its last sound.
 */
export function ipaToVisemeSlots(ipa: string): PhonemeSlot[] {
  const slots: PhonemeSlot[] = [];
  for (const phoneme of splitIpaPhonemes(ipa)) {
    const vowels = phoneme.sounds.filter((s) => vowelVisemes[s] !== undefined);
    if (vowels.length > 0) {
      const total = phoneme.long ? 1.6 : vowels.length > 1 ? 1.4 : 1;
      for (const vowel of vowels) {
        const viseme = vowelVisemes[vowel]!;
        slots.push({ viseme, duration: total / vowels.length, openness: vowelOpenness[viseme] });
      }
    } else {
      const last = phoneme.sounds[phoneme.sounds.length - 1]!;
      const viseme = consonantVisemes[last] ?? 'ih';
      slots.push({ viseme, duration: phoneme.long ? 0.8 : 0.55, openness: viseme === 'sil' ? 0 : 0.35 });
    }
  }
  return slots;
}
