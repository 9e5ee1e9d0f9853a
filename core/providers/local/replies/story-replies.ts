import type { Intent } from '../detect-intent.js';
import type { ReplyContext, Sentences } from './reply-context.js';

/**
 * Short stories told on request, written for this engine: four spoken sentences each, with the
 * hero the user asked for ("a story about a dragon") or one of the engine's own. `{hero}` is the
 * hero introduced ("a dragon"), `{the}` the hero named again ("the dragon"), `{The}` the same at
 * the start of a sentence.
 */
const STORIES: readonly { motif: string; sentences: readonly string[] }[] = [
  {
    motif: 'a glowing map',
    sentences: [
      'Once upon a time, {hero} lived at the edge of a quiet forest.',
      'One morning, {the} found a glowing map tucked under a mossy stone.',
      'It led over the river and across the hills to a door no one had opened for a hundred years.',
      'Behind it was a garden full of lanterns, and {the} decided it was a secret worth keeping.',
    ],
  },
  {
    motif: 'the back of a sleepy whale',
    sentences: [
      'Long ago, in a town built on the back of a sleepy whale, there lived {hero}.',
      '{The} wanted more than anything to watch the sunrise from the top of the old lighthouse.',
      'On the longest night of the year, {the} climbed all three hundred steps.',
      'When the sun rose, the whole sea turned gold, and every step had been worth it.',
    ],
  },
  {
    motif: 'what the stars were whispering',
    sentences: [
      'There once was {hero} who could hear what the stars were whispering.',
      'Most nights the stars only gossiped about the weather up there.',
      'But one night they whispered about a storm, and {the} ran to warn the village just in time.',
      'Ever since, the villagers keep a lamp in the window to say thank you.',
    ],
  },
  {
    motif: 'the place where dreams are made',
    sentences: [
      'Once, {hero} set out to find the place where dreams are made.',
      'The path wound through clouds as soft as pillows, past a moon that hummed a lullaby.',
      'At the end glowed a tiny workshop, where an old owl stitched dreams out of moonlight.',
      'The owl smiled and stitched one just for {the}, and it was the sweetest dream of all.',
    ],
  },
];

const OWN_HEROES = ['a little fox', 'a curious robot', 'a young lighthouse keeper', 'a sleepy dragon', 'a brave snail'];

export function storyReply(ctx: ReplyContext, intent: Extract<Intent, { kind: 'story' }>): Sentences {
  const hero = intent.about ?? ctx.pick.pick(OWN_HEROES);
  const the = hero.replace(/^(?:a|an|some)\s+/i, 'the ');
  const values: Record<string, string> = { hero, the, The: the.charAt(0).toUpperCase() + the.slice(1) };
  // Stories are told by motif, so one already told (to any hero) waits until all have been.
  const motif = ctx.pick.pick(STORIES.map((story) => story.motif));
  const story = STORIES.find((candidate) => candidate.motif === motif)!;
  return story.sentences.map((sentence) => sentence.replace(/\{(hero|the|The)\}/g, (_, key: string) => values[key]!));
}
