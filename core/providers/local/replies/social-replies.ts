import type { Intent } from '../detect-intent.js';
import type { ReplyContext, Sentences } from './reply-context.js';
import { introduceSelf, say } from './reply-context.js';

const HELLO_START = /^(?:hi|hello|hey|hiya|howdy|greetings|welcome|good (?:morning|afternoon|evening|day))\b/i;

/** "Hi! I'm Ada." → "I'm Ada."; the greeting unchanged when nothing would be left. */
function withoutLeadingHello(greeting: string): string {
  const rest = greeting.replace(/^(?:hi|hello|hey|hiya|howdy|greetings|welcome|good (?:morning|afternoon|evening|day))(?: there)?[!,.]*\s*/i, '');
  return rest.length > 0 ? rest : greeting;
}

const OPENERS_WHAT_NEXT = ["What's on your mind today?", 'What would you like to talk about?', 'How can I help you today?', 'What can I do for you?'];

/** Greets: the persona's own greeting on the first turn, a tone-matched hello otherwise. */
export function greetingReply(ctx: ReplyContext): Sentences {
  const intro = ctx.message.introducedName !== undefined ? [say(ctx, ctx.tone.niceToMeet)] : [];
  if (ctx.firstTurn && ctx.voice.greeting !== undefined) {
    if (intro.length === 0) return [ctx.voice.greeting];
    // "Nice to meet you, Sam! I'm Ada…" rather than "Hi Sam! Hi! I'm Ada…".
    const niceToMeet = say(ctx, ctx.tone.niceToMeet.filter((t) => !HELLO_START.test(t)));
    return [niceToMeet, withoutLeadingHello(ctx.voice.greeting)];
  }
  if (ctx.firstTurn) {
    const hello = intro.length > 0 ? intro : [say(ctx, ctx.tone.hello)];
    return [...hello, `${introduceSelf(ctx)}.`, say(ctx, OPENERS_WHAT_NEXT)];
  }
  return [...(intro.length > 0 ? intro : [say(ctx, ctx.tone.helloAgain)]), say(ctx, OPENERS_WHAT_NEXT)];
}

/** A short hello placed before the answer when a message both greets and asks something. */
export function greetingPrefix(ctx: ReplyContext): string {
  const lively = ctx.voice.tone === 'cheerful' || ctx.voice.tone === 'playful' || ctx.voice.tone === 'warm';
  return say(ctx, lively ? ['Hi{user}!', 'Hello{user}!', 'Hey{user}!'] : ['Hello{user}.', 'Hi{user}.']);
}

export function farewellReply(ctx: ReplyContext): Sentences {
  return [say(ctx, ctx.tone.farewell)];
}

export function thanksReply(ctx: ReplyContext): Sentences {
  return [say(ctx, ctx.tone.thanksReply), say(ctx, ['Is there anything else I can help with?', 'Anything else on your mind?', 'Is there anything else you need?'])];
}

export function howAreYouReply(ctx: ReplyContext): Sentences {
  return [say(ctx, ctx.tone.howAreYou), say(ctx, ['How about you{user}?', 'How are you doing today?', 'And how are you feeling?'])];
}

export function feelingReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'feeling' }>): Sentences {
  const askedBack = /\b(?:and you|you\?|how about you|yourself)\b/i.test(ctx.memory.current);
  const back = askedBack ? [say(ctx, ctx.tone.howAreYou)] : [];
  if (intent.mood === 'positive') {
    return [say(ctx, ctx.tone.glad), ...back, say(ctx, ["What's been the best part of your day so far?", 'Anything fun planned?', 'What would you like to do today?'])];
  }
  return [say(ctx, ctx.tone.empathy, { word: intent.word }), ...back, say(ctx, ctx.guide.moodSupport)];
}

export function complimentReply(ctx: ReplyContext): Sentences {
  return [say(ctx, ctx.tone.complimentReply), say(ctx, ['What else can I do for you?', 'Is there anything else you would like to try?', 'Shall we keep going?'])];
}

export function insultReply(ctx: ReplyContext): Sentences {
  return [
    say(ctx, ctx.tone.insultReply),
    say(ctx, ["I'm a simple offline engine, so I do have real limits.", "I'm only a small rule-based engine, so I can miss the point."]),
    say(ctx, ['For richer answers, the site operator can connect a full AI provider.', 'If you need more than I can offer, the operator can switch me to a real AI provider.']),
  ];
}

export function apologyReply(ctx: ReplyContext): Sentences {
  return [say(ctx, ctx.tone.apologyReply), say(ctx, ["Let's carry on.", 'Where were we?', 'What would you like to do next?'])];
}

export function acknowledgeReply(ctx: ReplyContext): Sentences {
  return [say(ctx, ['Great.', 'Alright.', 'Okay.', 'Sounds good.']), say(ctx, ['What would you like to talk about next?', 'Anything else on your mind?', 'What shall we do next?'])];
}

export function emptyReply(ctx: ReplyContext): Sentences {
  return [say(ctx, ["I didn't catch anything there.", 'That message came through empty.']), say(ctx, OPENERS_WHAT_NEXT)];
}
