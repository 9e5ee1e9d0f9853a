import type { Clock } from '../../../clock.js';
import type { Voice } from '../character-voice.js';
import type { ConversationMemory } from '../conversation-memory.js';
import type { DetectedMessage } from '../detect-intent.js';
import type { PhrasePicker } from '../phrase-picker.js';
import type { TonePhrases } from '../tone-phrases.js';
import type { VerticalGuide } from '../vertical-guides.js';

/** Everything a reply composer needs, assembled once per request. */
export interface ReplyContext {
  readonly voice: Voice;
  readonly guide: VerticalGuide;
  readonly tone: TonePhrases;
  readonly memory: ConversationMemory;
  readonly message: DetectedMessage;
  readonly pick: PhrasePicker;
  /** Present only when the host injected a clock; without one the engine will not guess the time. */
  readonly clock: Clock | undefined;
  /** IANA time zone for spoken times and dates. */
  readonly timeZone: string;
  /** True when the assistant has not spoken yet in this conversation. */
  readonly firstTurn: boolean;
  /** Whether to address the user by name in this reply (decided once, so it is used sparingly). */
  readonly useName: boolean;
}

/** The sentences of a reply, before they are joined and cleaned. */
export type Sentences = string[];

/** Values for template placeholders besides the built-in ones. */
export type TemplateVars = Readonly<Record<string, string | undefined>>;

/**
 * Fills a phrase template. Built-ins: `{user}` → ", Sam" or "" (only when the reply uses the name),
 * `{User}` → "Sam" or "there", `{name}` → the avatar's name, `{role}` → its role, `{topic}` →
 * `vars.topic` or "that". Unknown or missing values become empty text, never "undefined".
 */
export function fill(template: string, ctx: ReplyContext, vars: TemplateVars = {}): string {
  const userName = ctx.memory.userName;
  const values: Record<string, string | undefined> = {
    user: userName !== undefined && ctx.useName ? `, ${userName}` : '',
    User: userName ?? 'there',
    name: ctx.voice.name ?? 'your assistant',
    role: roleOf(ctx),
    topic: 'that',
    ...vars,
  };
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
}

/** Picks one of `templates` (avoiding ones already said) and fills it. */
export function say(ctx: ReplyContext, templates: readonly string[], vars: TemplateVars = {}): string {
  return ctx.pick.pick(templates.map((template) => fill(template, ctx, vars)));
}

/** The avatar's role as spoken: "math tutor" from a persona named "Math Tutor"; acronyms kept. */
export function roleOf(ctx: ReplyContext): string {
  const role = ctx.voice.role;
  if (role === undefined) return ctx.guide.roleNoun;
  return role
    .split(' ')
    .map((word) => (/^[A-Z][a-z]+$/.test(word) ? word.toLowerCase() : word))
    .join(' ');
}

/** "I'm Ada, your math tutor" / "I'm your assistant". */
export function introduceSelf(ctx: ReplyContext): string {
  const role = roleOf(ctx);
  const article = /^(?:a|an|the|your)\b/i.test(role) ? '' : 'your ';
  return ctx.voice.name !== undefined ? `I'm ${ctx.voice.name}, ${article}${role}` : `I'm ${article}${role}`;
}

/** The most recent earlier topic, if any. */
export function lastTopic(ctx: ReplyContext): string | undefined {
  const topics = ctx.memory.earlierTopics;
  return topics[topics.length - 1];
}
