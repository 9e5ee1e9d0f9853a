import type { Intent } from '../detect-intent.js';
import { describeInstant } from '../describe-time.js';
import { JOKES } from '../jokes.js';
import { listPhrase } from '../spoken-text.js';
import type { ReplyContext, Sentences } from './reply-context.js';
import { say } from './reply-context.js';

/**
 * Replies about facts: the few the engine can know exactly (sums, the injected clock) and honest
 * answers for the many it cannot (weather, general knowledge).
 */

export function arithmeticReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'arithmetic' }>): Sentences {
  const { result } = intent;
  if (!result.ok) {
    return result.problem === 'division-by-zero'
      ? [say(ctx, [`Dividing by zero isn't defined, so ${result.spoken} has no answer.`, `There's no answer to ${result.spoken}, because you can't divide by zero.`])]
      : [say(ctx, ["That's beyond what I can work out reliably.", "That result is too large or not a real number, so I can't give you a clean answer."])];
  }
  const answer = say(ctx, [`${result.spoken} is ${result.answer}.`, `That comes to ${result.answer}.`, `Let me see, ${result.spoken} makes ${result.answer}.`, `The answer is ${result.answer}.`]);
  if (ctx.voice.vertical === 'education' && ctx.pick.chance(0.5)) {
    return [answer, say(ctx, ['Want to try the next one yourself?', 'Can you see how we got there?'])];
  }
  return [answer];
}

export function timeReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'time' | 'date' }>): Sentences {
  if (ctx.clock === undefined) {
    return [
      say(ctx, [`I don't have access to a clock here, so I can't tell you the ${intent.kind}.`, `I'm not connected to a clock, so I can't say the ${intent.kind} for sure.`]),
      say(ctx, ["Your device's clock will know.", 'The corner of your screen probably shows it.']),
    ];
  }
  const spoken = describeInstant(ctx.clock.now(), ctx.timeZone);
  const zone = spoken.timeZone === 'UTC' ? ' in UTC' : '';
  return intent.kind === 'time'
    ? [say(ctx, [`It's ${spoken.time}${zone}.`, `Right now it's ${spoken.time}${zone}.`])]
    : [say(ctx, [`Today is ${spoken.date}.`, `It's ${spoken.date}.`])];
}

export function weatherReply(ctx: ReplyContext): Sentences {
  const place = ctx.memory.location;
  return [
    say(ctx, ["I can't check the weather, since I work offline without any live data.", "I don't have a window or a forecast, so I can't tell you the weather."]),
    place !== undefined
      ? say(ctx, [`I hope it's pleasant in ${place}, though.`, `A weather app will know how ${place} is looking today.`])
      : say(ctx, ['A weather app or a quick look outside will tell you more than I can.', 'Your phone will know better than me.']),
    say(ctx, ['Do you prefer sunny days or rainy ones?', "What's your favourite kind of weather?"]),
  ];
}

export function jokeReply(ctx: ReplyContext): Sentences {
  return [say(ctx, ctx.tone.jokeIntro), ctx.pick.pick(JOKES), say(ctx, ['Want to hear another one?', 'Shall I tell you another one?'])];
}

/** A task the engine cannot do (a poem, a translation, a fact): said plainly, with what it can do instead. */
export function requestReply(ctx: ReplyContext): Sentences {
  const abilities = listPhrase(ctx.guide.capabilities.slice(0, 2), 'or');
  return [
    say(ctx, ["I'd like to, but that's beyond me here{user}.", "That's not something I can do well here{user}.", "I wish I could help with that one{user}."]),
    say(ctx, [
      "I'm a small offline engine without general knowledge, so writing, translating and looking things up are out of my reach.",
      "I run offline on simple rules, so I can't write, translate or look things up the way a full AI model would.",
    ]),
    say(ctx, [`What I can do is ${abilities}.`, `I can ${abilities}, though.`]),
    say(ctx, ['With a full AI provider connected, the operator can make this avatar do much more.', 'The site operator can connect a full AI provider for tasks like that.']),
  ];
}

/** An open question the engine cannot answer: honest, helpful, and pointing to a real AI provider. */
export function unknownQuestionReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'question' }>): Sentences {
  const abilities = listPhrase(ctx.guide.capabilities.slice(0, 2), 'or');
  return [
    intent.topic !== undefined
      ? say(ctx, [`That's a good question about ${intent.topic}, but I don't have the knowledge to answer it properly.`, `I'd love to tell you about ${intent.topic}, but I honestly don't know.`])
      : say(ctx, ["That's a good question, but it's beyond what I can answer.", "Honestly, I don't know the answer to that one."]),
    say(ctx, [
      "I'm a small offline engine rather than a full AI model, so I can't look things up.",
      'I run offline without general knowledge, so open questions are hard for me.',
    ]),
    say(ctx, [`What I can do is ${abilities}.`, `I can ${abilities}, though.`]),
    say(ctx, [
      'For open-ended questions like this, the site operator can connect a real AI provider.',
      'If you need answers like that, the operator can switch this avatar to a full AI provider.',
    ]),
  ];
}
