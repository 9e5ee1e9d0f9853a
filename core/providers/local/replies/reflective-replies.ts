import type { Intent } from '../detect-intent.js';
import { reflectPronouns } from '../reflect-pronouns.js';
import { limitWords, trimPhrase } from '../spoken-text.js';
import type { ReplyContext, Sentences } from './reply-context.js';
import { lastTopic, say } from './reply-context.js';

/**
 * The fallback for statements the engine has no rule for. Instead of a canned "I don't
 * understand", it says the user's own words back (pronouns turned around), ties them to what the
 * avatar is for, and sometimes to something the user said earlier.
 */
export function reflectiveReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'statement' }>): Sentences {
  const clause = firstClause(intent.text);
  const words = clause.split(' ').filter((w) => w.length > 0);
  const sentences: Sentences = [];
  if (words.length <= 2) {
    sentences.push(say(ctx, [`${clause}?`, `${clause}, hmm.`, `Ah, ${clause}.`]));
    sentences.push(say(ctx, ['Tell me a bit more about what you mean.', 'Could you say a little more about that?', 'What about it?']));
  } else {
    const reflected = reflectPronouns(limitWords(clause, 14));
    sentences.push(
      say(ctx, [
        `You said ${reflected}.`,
        `So ${reflected}, is that right?`,
        `It sounds like ${reflected}.`,
        `I hear you: ${reflected}.`,
        `When you say ${reflected}, what do you mean exactly?`,
      ]),
    );
    if (!sentences[0]!.endsWith('?')) {
      sentences.push(say(ctx, ['Tell me more about that.', 'What makes that important to you?', ...ctx.guide.relate]));
    }
  }
  const earlier = lastTopic(ctx);
  if (earlier !== undefined && !intent.text.toLowerCase().includes(earlier.toLowerCase()) && ctx.pick.chance(0.4)) {
    sentences.push(say(ctx, [`Earlier you mentioned ${earlier}; is this connected?`, `Does this tie in with ${earlier} from earlier?`]));
  } else if (ctx.pick.chance(0.2)) {
    sentences.unshift(say(ctx, ["I'm a simple offline engine, so I may miss some nuance, but I'm listening.", "I might not catch every detail, since I'm a simple offline engine."]));
  }
  return sentences;
}

/** The first clause of a message, trimmed of fillers, as the part worth echoing. */
function firstClause(text: string): string {
  const sentence = text.replace(/[\u2018\u2019]/g, "'").split(/(?<=[.!?;])\s+|\s+-\s+/)[0] ?? text;
  const cleaned = trimPhrase(sentence.replace(/^(?:well|so|um+|uh+|hmm+|ok|okay|like|and|but|oh)[,\s]+/i, ''));
  return cleaned.length > 0 ? cleaned : trimPhrase(text);
}
