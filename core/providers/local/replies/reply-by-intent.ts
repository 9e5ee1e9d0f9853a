import type { Intent } from '../detect-intent.js';
import { joinSentences } from '../spoken-text.js';
import { helpReply, healthReply, emergencyReply, yesReply, noReply } from './help-replies.js';
import { arithmeticReply, jokeReply, requestReply, timeReply, unknownQuestionReply, weatherReply } from './knowledge-replies.js';
import {
  introductionReply,
  locationReply,
  nameAcknowledgement,
  preferenceReply,
  recallHistoryReply,
  recallNameReply,
  recallProfileReply,
} from './memory-replies.js';
import { reflectiveReply } from './reflective-replies.js';
import { storyReply } from './story-replies.js';
import type { ReplyContext, Sentences } from './reply-context.js';
import { areYouAiReply, capabilitiesReply, hobbiesReply, identityReply } from './self-replies.js';
import {
  acknowledgeReply,
  apologyReply,
  complimentReply,
  emptyReply,
  farewellReply,
  feelingReply,
  greetingPrefix,
  greetingReply,
  howAreYouReply,
  insultReply,
  thanksReply,
} from './social-replies.js';

/** Intents whose safety sentences must never be cut by a "concise" speaking style. */
const SAFETY_CRITICAL: ReadonlySet<Intent['kind']> = new Set(['emergency', 'health']);

function replyFor(ctx: ReplyContext, intent: Intent): Sentences {
  switch (intent.kind) {
    case 'empty': return emptyReply(ctx);
    case 'emergency': return emergencyReply(ctx, intent);
    case 'recall-name': return recallNameReply(ctx);
    case 'recall-history': return recallHistoryReply(ctx);
    case 'recall-profile': return recallProfileReply(ctx);
    case 'arithmetic': return arithmeticReply(ctx, intent);
    case 'time':
    case 'date': return timeReply(ctx, intent);
    case 'are-you-ai': return areYouAiReply(ctx);
    case 'identity': return identityReply(ctx);
    case 'capabilities': return capabilitiesReply(ctx);
    case 'joke': return jokeReply(ctx);
    case 'story': return storyReply(ctx, intent);
    case 'weather': return weatherReply(ctx);
    case 'how-are-you': return howAreYouReply(ctx);
    case 'hobbies': return hobbiesReply(ctx, intent);
    case 'farewell': return farewellReply(ctx);
    case 'thanks': return thanksReply(ctx);
    case 'greeting': return greetingReply(ctx);
    case 'feeling': return feelingReply(ctx, intent);
    case 'yes': return yesReply(ctx, intent);
    case 'no': return noReply(ctx, intent);
    case 'acknowledge': return acknowledgeReply(ctx);
    case 'health': return healthReply(ctx, intent);
    case 'help': return helpReply(ctx, intent);
    case 'compliment': return complimentReply(ctx);
    case 'insult': return insultReply(ctx);
    case 'apology': return apologyReply(ctx);
    case 'introduction': return introductionReply(ctx);
    case 'preference': return preferenceReply(ctx, intent);
    case 'location': return locationReply(ctx, intent);
    case 'request': return requestReply(ctx);
    case 'question': return unknownQuestionReply(ctx, intent);
    case 'statement': return reflectiveReply(ctx, intent);
  }
}

/**
 * Composes the whole reply for the newest message: the intent's sentences, preceded by a hello or
 * a "nice to meet you" when the message also greeted or introduced the user, limited to four
 * sentences (two for a concise speaking style) of plain, speakable text.
 */
export function composeReply(ctx: ReplyContext): string {
  const { intent, greeted, introducedName } = ctx.message;
  const body = replyFor(ctx, intent);
  const prefix: Sentences = [];
  const handlesOwnGreeting = intent.kind === 'greeting' || intent.kind === 'introduction' || intent.kind === 'emergency' || intent.kind === 'story';
  if (!handlesOwnGreeting) {
    if (introducedName !== undefined) prefix.push(nameAcknowledgement(ctx));
    else if (greeted) prefix.push(greetingPrefix(ctx));
  }
  const safety = SAFETY_CRITICAL.has(intent.kind) || (intent.kind === 'help' && ctx.voice.vertical === 'healthcare');
  // A story is asked for at its length; a concise speaking style does not cut it short.
  const story = intent.kind === 'story' || (intent.kind === 'yes' && intent.offer === 'story');
  const limit = ctx.voice.concise && !safety && !story ? 2 : 4;
  // A prefix must not push the answer itself out of the limit.
  const sentences = prefix.length > 0 && body.length >= limit ? [...prefix, ...body.slice(0, limit - 1)] : [...prefix, ...body];
  return joinSentences(sentences, limit);
}
