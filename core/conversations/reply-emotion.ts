/**
 * The emotions an avatar can show while it speaks a sentence, named after the VRM 1.0
 * expression presets the widget blends in (`happy`, `sad`, `surprised`, `relaxed`, `angry`).
 */
export const ReplyEmotions = ['happy', 'sad', 'surprised', 'relaxed', 'angry'] as const;
export type ReplyEmotion = (typeof ReplyEmotions)[number];

interface EmotionRule {
  readonly emotion: ReplyEmotion;
  /** Whole-word patterns on the lower-cased sentence (straight apostrophes). */
  readonly patterns: readonly RegExp[];
}

/**
 * Phrases that would read as another emotion word for word but mean reassurance ("no need to
 * apologise" is not an apology, "no problem" is not a problem). They count as `relaxed` and are
 * removed before the other rules look at the sentence.
 */
const REASSURANCE: readonly RegExp[] = [
  /\bno (?:need|reason) to (?:apologi[sz]e|be sorry|worry)\b/g,
  /\bnothing to (?:apologi[sz]e for|forgive|be sorry about|worry about)\b/g,
  /\bno (?:apology|apologies) (?:is |are )?(?:necessary|needed)\b/g,
  /\bno (?:worries|problem|rush|harm done|hurry)\b/g,
  /\b(?:don't|do not|please don't) (?:worry|be sorry)\b/g,
  /\btake your time\b/g,
  /\b(?:it's|that's|that is|it is) (?:quite |perfectly |really |totally )?(?:okay|ok|alright|all right|fine)\b/g,
  /\ball good\b/g,
  /\bgo gently\b/g,
  // Thanking the user for confiding is a calm acknowledgement, not a cheerful thank-you.
  /\bthank you for (?:telling|sharing|letting)\b[^.!?]*/g,
];

/**
 * Word rules; each pattern that matches (and is not negated just before) scores one point for its
 * emotion, and the highest score wins.
 */
const RULES: readonly EmotionRule[] = [
  {
    emotion: 'sad',
    patterns: [
      /\b(?:i'm|i am|we're|we are) (?:so |very |really |truly )?sorry\b/,
      /\bsorry (?:to hear|that|you|for|about|,? but)\b/,
      /\b(?:i|we) (?:sincerely )?apologi[sz]e\b/,
      /\bmy apologies\b/,
      /\b(?:unfortunately|sadly|regrettably|i'm afraid|i am afraid)\b/,
      /\b(?:that|it) (?:sounds|must be|must have been) (?:\w+ )?(?:hard|tough|difficult|painful|rough|awful|terrible)\b/,
      /\b(?:doesn't|does not) sound (?:like )?(?:much )?(?:fun|good|great|easy)\b/,
      /\b(?:no fun|not easy|is rough|oh no|oof|ouch|too bad|heartbreaking|condolences|passed away)\b/,
      /\b(?:let you down|not (?:being )?(?:much )?help(?:ful)?|not working|didn't work|can't help|cannot help|unable to)\b/,
      /\b(?:sad|lonely|grief|grieving|hurt|upset|frustrat\w*|disappoint\w*)\b/,
    ],
  },
  {
    emotion: 'angry',
    patterns: [/\b(?:unacceptable|outrageous|how dare|furious|infuriating|fed up)\b/],
  },
  {
    emotion: 'surprised',
    patterns: [
      /\b(?:wow|whoa|woah|oh my|goodness|no way|what a surprise|nice surprise|unbelievable|incredible|astonishing|surprising|surprised)\b/,
      /\breally\?/,
      /[!?]\?|\?!/,
    ],
  },
  {
    emotion: 'relaxed',
    patterns: [/\b(?:calm|calmly|relax\w*|breathe|gentle|gently|peaceful|at ease|take (?:good )?care|understandable)\b/],
  },
  {
    emotion: 'happy',
    patterns: [
      /\b(?:hi|hello|hey|hiya|welcome|good (?:morning|afternoon|evening|day)|greetings)\b/,
      /\b(?:welcome back|nice to (?:meet|see|hear)|good to (?:meet|see|hear)|lovely to|pleased to meet|glad|happy|pleased|delighted|pleasure|enjoy\w*|fun|flatter\w*|blush\w*)\b/,
      /\b(?:nice|great|wonderful|fantastic|awesome|excellent|amazing|brilliant|lovely|splendid|perfect|yay|hooray|congratulations|congrats|well done)\b/,
      /\b(?:thank you|thanks|you're (?:very |so |most )?welcome|my pleasure|love (?:that|it|hearing)|made my day|good news|best news|(?:kind|sweet|nice) of you|too kind|appreciate\w*)\b/,
      /\b(?:ha|haha|hehe)\b/,
    ],
  },
];

/** Words that turn the next few words around ("not great", "never happy"). */
const NEGATION = /\b(?:not|never|no|isn't|wasn't|aren't|don't|doesn't|didn't|hardly)\s+(?:\w+\s+){0,2}$/;

/**
 * The emotion a sentence of a reply carries, or `undefined` for a plain statement, from a few
 * word and phrase rules (English): greetings, thanks and good news are `happy`; apologies, bad
 * news and sympathy `sad` (a small frown); reassurance ("no worries", "take your time") and calm
 * wishes `relaxed`; exclamations of astonishment `surprised`; outrage `angry`.
 *
 * Used for the sentences of every reply, whichever engine wrote them, so the avatar's face
 * follows what it says. Deliberately conservative: a sentence with no clear cue gets none, and
 * the avatar keeps its neutral face.
 *
 * @example
 * inferReplyEmotion("Hi Sam! It's so good to see you.") // 'happy'
 * inferReplyEmotion("I'm sorry to hear that.")          // 'sad'
 * inferReplyEmotion('No need to apologise.')            // 'relaxed'
 * inferReplyEmotion('The museum opens at nine.')        // undefined
 */
export function inferReplyEmotion(sentence: string): ReplyEmotion | undefined {
  let text = sentence.toLowerCase().replace(/[‘’ʼ]/g, "'").replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  const scores = new Map<ReplyEmotion, number>();
  for (const pattern of REASSURANCE) {
    const before = text;
    text = text.replace(pattern, ' ');
    if (text !== before) scores.set('relaxed', (scores.get('relaxed') ?? 0) + 1);
  }
  for (const rule of RULES) {
    for (const pattern of rule.patterns) {
      const match = pattern.exec(text);
      if (!match || NEGATION.test(text.slice(0, match.index))) continue;
      scores.set(rule.emotion, (scores.get(rule.emotion) ?? 0) + 1);
    }
  }
  let best: ReplyEmotion | undefined;
  let bestScore = 0;
  // Ties: a frown or surprise over a smile, and a smile over calm ("Hi. Take your time.").
  for (const emotion of ['sad', 'angry', 'surprised', 'happy', 'relaxed'] as const) {
    const score = scores.get(emotion) ?? 0;
    if (score > bestScore) {
      best = emotion;
      bestScore = score;
    }
  }
  return best;
}
