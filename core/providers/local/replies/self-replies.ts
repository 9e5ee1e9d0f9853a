import type { Intent } from '../detect-intent.js';
import { listPhrase, sanitizeSpokenText } from '../spoken-text.js';
import type { ReplyContext, Sentences } from './reply-context.js';
import { introduceSelf, say } from './reply-context.js';

/**
 * Replies about the avatar itself. These are where honesty matters most: the engine plays a
 * character but never claims to be a person or a large language model.
 */

const OFFLINE_HONESTY = [
  "To be upfront, I'm running on a small offline engine built into this service, so I follow simple rules rather than a full AI model.",
  "Just so you know, I'm powered by an offline rule-based engine, not a large language model, so my answers are fairly simple.",
  "Under the hood I'm a lightweight offline engine playing this character, which keeps things working without any internet connection.",
];

export function identityReply(ctx: ReplyContext): Sentences {
  const traits = ctx.voice.traits;
  const about = traits === undefined ? [] : [say(ctx, [`I like to think I'm ${traits}.`, `People tell me I'm ${traits}.`])];
  return [`${introduceSelf(ctx)}.`, ...about, say(ctx, OFFLINE_HONESTY)];
}

export function areYouAiReply(ctx: ReplyContext): Sentences {
  const who = ctx.voice.name !== undefined ? `${ctx.voice.name}, a character` : 'a character';
  return [
    say(ctx, ["Honest answer: I'm not a person.", "Good question, and I'll be straight with you: I'm not human.", "No, I'm not a real person."]),
    say(ctx, [
      `I'm ${who} played by a simple offline demo engine built into this service, not a large language model.`,
      `I'm ${who} run by an offline rule-based engine; I don't truly understand things the way a full AI model would.`,
    ]),
    say(ctx, [
      'For richer, open-ended conversation, the site operator can connect a real AI provider.',
      'If you want deeper answers, the operator can plug in a full AI provider instead of me.',
    ]),
  ];
}

export function capabilitiesReply(ctx: ReplyContext): Sentences {
  const abilities = ctx.guide.capabilities.slice(0, 3);
  return [
    say(ctx, [`I can ${listPhrase(abilities, 'or')}.`, `Here's what I can do: ${listPhrase(abilities)}.`]),
    say(ctx, ["I'll also remember what you tell me during our chat, like your name.", 'I also keep track of what we talk about, so you can ask me about it later.']),
    say(ctx, ['What would you like to start with?', ...ctx.guide.followUps.filter((q) => !q.includes('{topic}'))]),
  ];
}

export function hobbiesReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'hobbies' }>): Sentences {
  if (intent.about !== undefined) {
    const about = sanitizeSpokenText(intent.about);
    return [
      say(ctx, [`I can't really try ${about} myself, but I like hearing about it.`, `I don't get to experience ${about} the way you do, but it sounds interesting.`]),
      say(ctx, [`What do you like about ${about}?`, `Are you into ${about} yourself?`]),
    ];
  }
  return [
    say(ctx, ["I don't have hobbies quite like you do, but I have favourite things.", "If I'm honest, I don't really have free time, but I do have favourites."]),
    say(ctx, ctx.guide.enjoys),
    say(ctx, ['What about you, what do you enjoy?', 'What do you like to do for fun?']),
  ];
}
