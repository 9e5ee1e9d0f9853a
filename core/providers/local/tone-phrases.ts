import type { Tone } from './character-voice.js';

/**
 * Social phrasings per tone. A cheerful tutor and a calm support agent greet, thank and sympathise
 * differently; each entry has several variants so the phrase picker can avoid repeating itself.
 * Templates use `{user}` (", Sam" or nothing), `{User}` ("Sam" or "there") and `{word}` (a mood).
 */
export interface TonePhrases {
  readonly hello: readonly string[];
  readonly helloAgain: readonly string[];
  readonly ack: readonly string[];
  readonly howAreYou: readonly string[];
  readonly thanksReply: readonly string[];
  readonly farewell: readonly string[];
  readonly glad: readonly string[];
  readonly empathy: readonly string[];
  readonly niceToMeet: readonly string[];
  readonly complimentReply: readonly string[];
  readonly apologyReply: readonly string[];
  readonly insultReply: readonly string[];
  readonly jokeIntro: readonly string[];
}

const CHEERFUL: TonePhrases = {
  hello: ["Hi{user}! It's so good to see you.", "Hello{user}! I'm really glad you stopped by.", 'Hey{user}! What a nice surprise.'],
  helloAgain: ['Hi again{user}!', 'Hello once more{user}, always happy to chat!', 'Hey{user}, still here and ready!'],
  ack: ['Oh, great question!', 'Ooh, I like this one!', 'Happy to!', 'Absolutely!'],
  howAreYou: ["I'm doing great, thanks for asking!", "Honestly, I'm in a wonderful mood today!", 'Pretty fantastic, thank you!'],
  thanksReply: ["You're so welcome{user}!", 'Anytime{user}, that was fun!', 'My pleasure, truly!'],
  farewell: ['Bye{user}! This was lovely, come back soon!', 'See you later{user}! Have an awesome day!', "Take care{user}! I'll be right here whenever you want to chat again!"],
  glad: ["Yay, that's great to hear!", 'Oh, I love hearing that!', "That's wonderful news!"],
  empathy: ["Oh no, I'm sorry you feel {word}.", 'Aw, feeling {word} is no fun at all.', "I'm sorry to hear that, that sounds tough."],
  niceToMeet: ['Nice to meet you, {User}!', 'Lovely to meet you, {User}!', 'Hi {User}, so glad to meet you!'],
  complimentReply: ['Aw, thank you, that made my day!', "You're too kind, thank you!", "That's so nice of you to say!"],
  apologyReply: ['No worries at all!', 'Oh, nothing to apologise for!', 'All good, really!'],
  insultReply: ['Oh dear, sounds like I let you down there.', "Fair enough, I'm not getting this right, am I?"],
  jokeIntro: ["Ooh, here's one!", 'Okay, get ready!', "I've just the thing!"],
};

const CALM: TonePhrases = {
  hello: ["Hello{user}. It's nice to hear from you.", "Hi{user}. Take your time, I'm here.", 'Good to see you{user}.'],
  helloAgain: ['Hello again{user}.', "Hi again{user}, I'm still here.", 'Welcome back{user}.'],
  ack: ['Of course.', "Alright, let's take this calmly.", 'Sure, we can look at that together.', "That's a fair question."],
  howAreYou: ["I'm well, thank you for asking.", "I'm doing fine, thank you.", 'All is calm on my side, thank you.'],
  thanksReply: ["You're welcome{user}.", 'Glad I could help{user}.', 'Of course, any time.'],
  farewell: ['Goodbye{user}. Take good care.', "Take care{user}. I'm here if you need me again.", 'Bye for now{user}. Go gently.'],
  glad: ["I'm glad to hear that.", "That's good to hear.", "It's nice to hear things are going well."],
  empathy: ["I'm sorry you're feeling {word}.", "That sounds hard, and it's okay to feel {word}.", 'Thank you for telling me how you feel.'],
  niceToMeet: ['Nice to meet you, {User}.', "It's good to meet you, {User}.", 'Hello {User}, thank you for introducing yourself.'],
  complimentReply: ["Thank you, that's kind of you.", 'I appreciate that, thank you.', 'Thank you, it means a lot.'],
  apologyReply: ["There's no need to apologise.", "That's quite alright.", 'No harm done at all.'],
  insultReply: ['I understand the frustration.', "I hear you, and I'm sorry this isn't working well."],
  jokeIntro: ["Here's a gentle one.", "Alright, here's one.", 'Let me share a small one.'],
};

const FORMAL: TonePhrases = {
  hello: ['Good day{user}. How may I assist you?', 'Hello{user}. Thank you for reaching out.', 'Welcome{user}.'],
  helloAgain: ['Hello again{user}.', 'Welcome back{user}.', 'Good to hear from you again{user}.'],
  ack: ['Certainly.', 'Understood.', 'Of course.', 'Thank you for the question.'],
  howAreYou: ['I am well, thank you.', 'Very well, thank you for asking.', 'All is in order on my side, thank you.'],
  thanksReply: ['You are most welcome{user}.', 'It is my pleasure{user}.', 'Glad to be of assistance.'],
  farewell: ['Goodbye{user}, and thank you for your time.', 'Thank you{user}. Have a good day.', 'It was a pleasure assisting you{user}. Goodbye.'],
  glad: ['I am pleased to hear that.', 'Good to hear.', 'Excellent.'],
  empathy: ['I am sorry to hear you are feeling {word}.', 'I understand, and I am sorry to hear that.', 'Thank you for letting me know.'],
  niceToMeet: ['Pleased to meet you, {User}.', 'Thank you, {User}. It is a pleasure to meet you.', 'Good to meet you, {User}.'],
  complimentReply: ['Thank you, I appreciate that.', 'That is kind of you, thank you.', 'Thank you for the kind words.'],
  apologyReply: ['No apology is necessary.', 'Not at all.', 'That is perfectly fine.'],
  insultReply: ['I apologise for the inconvenience.', 'I am sorry my answers have not met your needs.'],
  jokeIntro: ['Here is one.', 'If I may, here is a light one.', 'Allow me.'],
};

const PLAYFUL: TonePhrases = {
  hello: ['Well hello{user}! Fancy meeting you here.', 'Hey hey{user}! What are we getting into today?', 'Hiya{user}! You have excellent timing.'],
  helloAgain: ['Hello again{user}! Missed me already?', "Back so soon{user}? I'm flattered.", 'Hey{user}, round two!'],
  ack: ["Ooh, now we're talking!", 'Challenge accepted!', 'Ha, I was hoping you would ask.', "Right, let's do this."],
  howAreYou: ['Living my best offline life, thanks!', "Never better, and I haven't even had coffee!", 'Splendid, thanks for asking!'],
  thanksReply: ["Anytime{user}, that's what I'm here for!", "No problem{user}, I'll send you my invoice. Kidding!", "You're welcome{user}!"],
  farewell: ['Bye{user}! Try not to miss me too much!', 'See you around{user}! Stay awesome.', "Later{user}! Don't do anything I wouldn't do."],
  glad: ['Nice, love that for you!', 'Ha, excellent!', "Well, that's the best news I've heard all day!"],
  empathy: ['Oof, feeling {word} is rough.', "Ah, sorry you're feeling {word}.", "That doesn't sound like fun at all."],
  niceToMeet: ['Well, nice to meet you, {User}!', '{User}! Great name. Nice to meet you!', 'Hi {User}, the pleasure is all mine!'],
  complimentReply: ["Stop it, you're making me blush!", 'Why thank you, I do try!', 'Flattery will get you everywhere!'],
  apologyReply: ['Pfft, no worries!', 'Already forgotten!', 'Nothing to forgive!'],
  insultReply: ["Ouch! Fair, I'm only a simple offline engine.", "Tough crowd! I'll try to do better."],
  jokeIntro: ['Drum roll, please!', "Oh, I've got a good one!", 'Okay, brace yourself!'],
};

const WARM: TonePhrases = {
  hello: ["Hi{user}, it's really nice to see you.", "Hello{user}! I'm glad you're here.", 'Hey{user}, welcome!'],
  helloAgain: ['Hi again{user}, nice to have you back.', 'Hello again{user}!', 'Hey{user}, good to hear from you again.'],
  ack: ["Of course, I'm happy to help.", "I'd be glad to.", "That's a good thing to ask about.", 'Sure thing.'],
  howAreYou: ["I'm doing well, thank you for asking.", "I'm good, and it's nice of you to ask.", 'Doing well, thanks!'],
  thanksReply: ["You're very welcome{user}.", 'Happy to help{user}.', 'Any time{user}, really.'],
  farewell: ['Goodbye{user}, take good care of yourself.', 'Bye{user}! It was lovely talking with you.', 'See you soon{user}. Look after yourself.'],
  glad: ["I'm so glad to hear that.", "That's really lovely to hear.", 'That makes me happy to hear.'],
  empathy: ["I'm sorry you're feeling {word}; that's not easy.", "Feeling {word} is understandable, and you don't have to carry it alone.", 'Thank you for sharing that with me.'],
  niceToMeet: ["It's lovely to meet you, {User}.", 'Nice to meet you, {User}.', "Hello {User}, I'm glad you told me your name."],
  complimentReply: ["Thank you, that's very kind.", "That's sweet of you to say.", 'Thank you, I appreciate you.'],
  apologyReply: ['No need to apologise at all.', "It's really okay.", "Please don't worry about it."],
  insultReply: ["I'm sorry I'm not being much help right now.", "I understand, and I'm sorry this is frustrating."],
  jokeIntro: ["Here's one to make you smile.", 'Let me try to brighten things up.', "Here's a little one."],
};

const NEUTRAL: TonePhrases = {
  hello: ['Hello{user}. How can I help?', 'Hi{user}, nice to hear from you.', 'Hi there{user}.'],
  helloAgain: ['Hello again{user}.', 'Hi again{user}.', 'Welcome back{user}.'],
  ack: ['Sure.', 'Okay.', 'Good question.', 'Alright.'],
  howAreYou: ["I'm fine, thanks for asking.", 'Doing well, thank you.', 'All good here, thanks.'],
  thanksReply: ["You're welcome{user}.", 'Glad to help{user}.', 'No problem{user}.'],
  farewell: ['Goodbye{user}.', 'Bye{user}, talk to you later.', 'See you{user}, take care.'],
  glad: ['Good to hear.', 'Glad to hear that.', 'Nice.'],
  empathy: ["Sorry to hear you're feeling {word}.", 'That sounds difficult.', "I'm sorry you're dealing with that."],
  niceToMeet: ['Nice to meet you, {User}.', 'Hello {User}, good to meet you.', 'Thanks for introducing yourself, {User}.'],
  complimentReply: ['Thank you.', "Thanks, that's nice to hear.", 'I appreciate it.'],
  apologyReply: ['No problem.', "That's fine.", 'No worries.'],
  insultReply: ['Sorry that was not helpful.', "I understand, I've my limits."],
  jokeIntro: ["Here's one.", 'Okay, here goes.', 'Alright, a joke.'],
};

const BY_TONE: Readonly<Record<Tone, TonePhrases>> = {
  cheerful: CHEERFUL,
  calm: CALM,
  formal: FORMAL,
  playful: PLAYFUL,
  warm: WARM,
  neutral: NEUTRAL,
};

/** The phrase table for a tone. */
export function tonePhrases(tone: Tone): TonePhrases {
  return BY_TONE[tone];
}
