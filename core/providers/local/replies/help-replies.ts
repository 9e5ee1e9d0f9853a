import type { Intent } from '../detect-intent.js';
import { EMERGENCY_LINES, HEALTH_SAFETY_LINES, verticalGuide } from '../vertical-guides.js';
import { jokeReply } from './knowledge-replies.js';
import type { ReplyContext, Sentences } from './reply-context.js';
import { fill, lastTopic, say } from './reply-context.js';
import { storyReply } from './story-replies.js';

/**
 * Help in the avatar's line of work: an opening, one concrete next step, and a follow-up question,
 * all from the vertical guide. Health and emergencies get their safety lines in every vertical.
 */

export function helpReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'help' }>): Sentences {
  const { guide } = ctx;
  // Something is broken: whatever the avatar's role, troubleshooting questions help most.
  const steps = intent.problem ? verticalGuide('support') : guide;
  const topic = intent.topic;
  const vars = { topic: topic ?? 'that' };
  const opening = say(ctx, intent.problem ? guide.problemHelp : guide.help, vars);
  const sentences: Sentences = [];
  const previous = lastTopic(ctx);
  const referBack = previous !== undefined && topic !== undefined && previous.toLowerCase() !== topic.toLowerCase() && ctx.pick.chance(0.3);
  if (!referBack && ctx.pick.chance(0.4)) sentences.push(say(ctx, ctx.tone.ack));
  sentences.push(opening);
  if (ctx.voice.vertical === 'healthcare' && !intent.problem) sentences.push(say(ctx, guide.caveats));
  else if (guide.caveats.length > 0 && ctx.pick.chance(0.4)) sentences.push(say(ctx, guide.caveats));
  sentences.push(say(ctx, steps.nextSteps, vars));
  if (referBack) sentences.push(say(ctx, [`Earlier you mentioned ${previous}, and we can come back to that too.`, `We can also return to ${previous} from earlier whenever you like.`]));
  sentences.push(say(ctx, steps.followUps, vars));
  return keepQuestionLast(sentences);
}

/** Health topics in any vertical: general framing, the not-a-doctor line, one practical step. */
export function healthReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'health' }>): Sentences {
  const health = verticalGuide('healthcare');
  const vars = { topic: intent.topic ?? 'that' };
  const opening = ctx.voice.vertical === 'healthcare'
    ? say(ctx, intent.topic !== undefined ? health.help : health.problemHelp, vars)
    : say(ctx, ["That sounds like a health question, and I can only speak in very general terms.", "I'm sorry you're dealing with that."]);
  return [
    opening,
    say(ctx, HEALTH_SAFETY_LINES),
    say(ctx, ['If it feels severe, sudden or keeps getting worse, please seek medical care promptly.', ...health.nextSteps], vars),
    say(ctx, health.followUps, vars),
  ];
}

export function emergencyReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'emergency' }>): Sentences {
  if (intent.crisis === 'self-harm') {
    return [...EMERGENCY_LINES.selfHarm, "I'm only a simple offline program, but I'm glad you told me, and you can keep talking to me while you reach out."];
  }
  return [
    EMERGENCY_LINES.medical[0],
    "I'm not a doctor and can't assess this, so please get help from a professional right away.",
  ];
}

export function yesReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'yes' }>): Sentences {
  const vars = { topic: lastTopic(ctx) ?? 'it' };
  switch (intent.offer) {
    case 'joke':
      return jokeReply(ctx).slice(1);
    case 'story':
      return storyReply(ctx, { kind: 'story' });
    case 'anything-else':
      return [say(ctx, ['Of course, what else is on your mind?', 'Sure, go ahead, what would you like to ask?'])];
    case 'generic':
    case 'wellbeing':
      return [say(ctx, ['Great.', 'Alright.', 'Okay, good.']), say(ctx, ["Tell me a bit more, and we'll take it from there.", "Go on, I'm listening."])];
    default: {
      const next = say(ctx, ctx.guide.yesNext, vars);
      return ctx.voice.vertical === 'healthcare' ? [next, say(ctx, HEALTH_SAFETY_LINES)] : [next];
    }
  }
}

export function noReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'no' }>): Sentences {
  if (intent.offer === 'anything-else') {
    return [say(ctx, ['Alright{user}.', 'Okay then{user}.']), say(ctx, ["It was nice talking with you, and I'm here if you need anything.", "I'll be right here if anything else comes up."])];
  }
  if (intent.offer === 'joke') {
    return [say(ctx, ['No problem, no more jokes for now.', "Fair enough, I'll save the rest for later."]), say(ctx, ['What would you like to do instead?', 'What shall we talk about?'])];
  }
  return [
    say(ctx, ['No problem at all.', "That's completely fine.", 'Okay, no worries.']),
    say(ctx, ['What would you like to do instead?', fill(`I can also ${ctx.guide.capabilities[1] ?? ctx.guide.capabilities[0] ?? 'chat'}, if that helps.`, ctx)]),
  ];
}

/** Keeps at most four sentences while making sure the follow-up question survives the cut. */
function keepQuestionLast(sentences: Sentences): Sentences {
  if (sentences.length <= 4) return sentences;
  const question = sentences[sentences.length - 1]!;
  return [...sentences.slice(0, 3), question];
}
