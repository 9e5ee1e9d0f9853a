/**
 * Clean, short jokes that work when spoken aloud. Written for this engine; each is one or two
 * sentences so a joke reply stays within the four-sentence limit.
 */
export const JOKES: readonly string[] = [
  'Why did the scarecrow win an award? Because he was outstanding in his field.',
  "I told my computer I needed a break, and it said, no problem, I'll go to sleep.",
  'Why do bees have sticky hair? Because they use honeycombs.',
  'What do you call a fish wearing a bow tie? Sofishticated.',
  'Why did the maths book look sad? It had too many problems.',
  'I used to play piano by ear, but now I use my hands.',
  "Why can't a bicycle stand up on its own? It's two tired.",
  'What did the ocean say to the beach? Nothing, it just waved.',
  'Why did the coffee file a police report? It got mugged.',
  'How does a penguin build its house? Igloos it together.',
  'Why are elevator jokes so good? They work on so many levels.',
  'What do you call a sleeping dinosaur? A dino snore.',
];
