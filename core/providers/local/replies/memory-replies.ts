import type { PastTurn } from '../conversation-memory.js';
import type { Intent } from '../detect-intent.js';
import { reflectPronouns } from '../reflect-pronouns.js';
import { limitWords, listPhrase, trimPhrase } from '../spoken-text.js';
import type { ReplyContext, Sentences } from './reply-context.js';
import { say } from './reply-context.js';

/**
 * Replies that show the engine was listening: recalling the user's name, what they asked and what
 * they like, and acknowledging new facts as they are shared.
 */

export function recallNameReply(ctx: ReplyContext): Sentences {
  const name = ctx.memory.userName;
  if (name === undefined) {
    return [
      say(ctx, ["I don't think you've told me your name yet.", "Hmm, you haven't mentioned your name so far."]),
      say(ctx, ['What should I call you?', "What's your name?"]),
    ];
  }
  return [say(ctx, [`Your name is ${name}.`, `You told me your name is ${name}.`, `You're ${name}, of course.`, `It's ${name}, if I remember right.`])];
}

/** Says what an earlier turn asked for, or `undefined` when it asked for nothing in particular. */
export function describePastRequest(turn: PastTurn): string | undefined {
  const intent: Intent = turn.intent;
  switch (intent.kind) {
    case 'help':
      return intent.topic !== undefined ? `you asked for help with ${intent.topic}` : 'you asked me for some help';
    case 'health':
      return intent.topic !== undefined ? `you asked about ${intent.topic}` : 'you asked me a health question';
    case 'question':
      return intent.topic !== undefined
        ? `you asked about ${intent.topic}`
        : `you asked, ${reflectPronouns(limitWords(trimPhrase(turn.text), 12))}`;
    case 'arithmetic':
      return `you asked me to work out ${intent.result.spoken}`;
    case 'joke':
      return 'you asked me for a joke';
    case 'weather':
      return 'you asked about the weather';
    case 'time':
      return 'you asked me the time';
    case 'date':
      return 'you asked me the date';
    case 'identity':
      return 'you asked who I am';
    case 'are-you-ai':
      return "you asked whether I'm an AI";
    case 'capabilities':
      return 'you asked what I can do';
    case 'hobbies':
      return intent.about !== undefined ? `you asked whether I like ${intent.about}` : 'you asked about my hobbies';
    case 'how-are-you':
      return 'you asked how I was doing';
    default:
      return undefined;
  }
}

/** Earlier requests, oldest first; a request asked several times is listed once, at its latest place. */
function pastRequests(ctx: ReplyContext): string[] {
  const requests: string[] = [];
  for (const turn of ctx.memory.earlierTurns) {
    const description = describePastRequest(turn);
    if (description === undefined) continue;
    const existing = requests.indexOf(description);
    if (existing >= 0) requests.splice(existing, 1);
    requests.push(description);
  }
  return requests;
}

export function recallHistoryReply(ctx: ReplyContext): Sentences {
  const requests = pastRequests(ctx);
  const topics = ctx.memory.earlierTopics.slice(-3);
  const wantsSummary = /\b(?:talk|talked|discuss|discussed|cover|covered|chat|chatted|summar)/i.test(ctx.memory.current);
  if (requests.length === 0 && topics.length === 0) {
    const said = ctx.memory.earlierTurns[ctx.memory.earlierTurns.length - 1];
    if (said === undefined) {
      return [say(ctx, ["This is actually the first thing you've asked me in this conversation.", "We're just getting started, so there's nothing earlier to recall yet."])];
    }
    return [
      say(ctx, [`Earlier you said ${reflectPronouns(limitWords(trimPhrase(said.text), 12))}.`, `The last thing you told me was ${reflectPronouns(limitWords(trimPhrase(said.text), 12))}.`]),
      say(ctx, ['You have not asked me anything specific yet.', 'No real questions so far, though.']),
    ];
  }
  const sentences: Sentences = [];
  if (wantsSummary && topics.length > 0) {
    sentences.push(say(ctx, [`So far we've talked about ${listPhrase(topics)}.`, `We've covered ${listPhrase(topics)} so far.`]));
    const lastRequest = requests[requests.length - 1];
    if (lastRequest !== undefined) sentences.push(`Most recently, ${lastRequest}.`);
  } else {
    const lastRequest = requests[requests.length - 1];
    const earlierOne = requests[requests.length - 2];
    if (lastRequest !== undefined) {
      sentences.push(say(ctx, [`Earlier ${lastRequest}.`, `Just before this, ${lastRequest}.`, `Most recently, ${lastRequest}.`]));
      if (earlierOne !== undefined) sentences.push(`Before that, ${earlierOne}.`);
    } else {
      sentences.push(`Earlier you mentioned ${listPhrase(topics)}.`);
    }
  }
  sentences.push(say(ctx, ['Would you like to pick that back up?', 'Shall we go back to it?', 'Want to continue from there?']));
  return sentences;
}

export function recallProfileReply(ctx: ReplyContext): Sentences {
  const { likes, location, userName, dislikes, current } = ctx.memory;
  if (/\b(?:live|from)\b/i.test(current)) {
    return location !== undefined
      ? [say(ctx, [`You told me you're in ${location}.`, `You mentioned ${location}.`])]
      : [say(ctx, ["You haven't told me where you live.", "I don't know where you're from yet."]), 'Where are you based?'];
  }
  const facts: Sentences = [];
  if (userName !== undefined && !/\b(?:like|love|enjoy|favou?rite)\b/i.test(current)) facts.push(`You're ${userName}.`);
  if (likes.length > 0) facts.push(say(ctx, [`You told me you like ${listPhrase(likes.slice(-3))}.`, `Earlier you mentioned you enjoy ${listPhrase(likes.slice(-3))}.`]));
  if (dislikes.length > 0) facts.push(`You're not a fan of ${listPhrase(dislikes.slice(-2))}.`);
  if (location !== undefined) facts.push(`You mentioned you're in ${location}.`);
  if (facts.length === 0) {
    return [
      say(ctx, ["You haven't told me much about yourself yet.", "I don't know much about you so far."]),
      say(ctx, ['What do you enjoy doing?', 'Tell me something you like, and I will remember it.']),
    ];
  }
  return facts;
}

/** Acknowledges a name the user just gave; standalone or as the first sentence of another reply. */
export function nameAcknowledgement(ctx: ReplyContext): string {
  return say(ctx, ctx.tone.niceToMeet);
}

export function introductionReply(ctx: ReplyContext): Sentences {
  return [
    nameAcknowledgement(ctx),
    say(ctx, ["I'll remember that.", "Got it, I'll remember your name."]),
    say(ctx, ['What brings you here today?', 'What would you like to talk about?', `I can ${ctx.guide.capabilities[0] ?? 'chat with you'} whenever you're ready.`]),
  ];
}

export function locationReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'location' }>): Sentences {
  return [
    say(ctx, [`Oh, ${intent.place}, lovely!`, `${intent.place}, nice.`, `Thanks for telling me you're in ${intent.place}.`]),
    say(ctx, ["I'll remember that.", 'Noted.']),
    say(ctx, [`What do you like most about ${intent.place}?`, `How is life in ${intent.place}?`]),
  ];
}

export function preferenceReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'preference' }>): Sentences {
  const like = intent.like;
  const earlierLike = [...ctx.memory.likes].reverse().find((l) => l.toLowerCase() !== like.toLowerCase());
  const sentences: Sentences = [say(ctx, [`Oh, ${like}, nice choice!`, `${like} sounds great.`, `I can see why you'd enjoy ${like}.`])];
  if (earlierLike !== undefined && ctx.pick.chance(0.6)) sentences.push(`Earlier you mentioned ${earlierLike} too, so you've got varied taste.`);
  sentences.push(say(ctx, [`What got you into ${like}?`, `What do you enjoy most about ${like}?`, `How long have you been into ${like}?`]));
  return sentences;
}
