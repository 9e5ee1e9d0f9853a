import { ValidationError } from '../../core/index.js';
import { s } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { accountScopeOf } from '../http/owner.js';
import { presentConversationSummary } from '../edge/present.js';
import { conversationListSchema } from '../http/resource-schemas.js';
import { avatarIdRules, conversationIdRules } from './id-schemas.js';

/**
 * `GET /v1/conversations`: the account's conversations newest first, a page at a time, filtered —
 * for the dashboard (account token, both modes) and for API clients (an API key, its mode).
 */
export function conversationListRoutes(): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/conversations',
      summary: "The account's conversations, newest first, a page at a time, with filters",
      tag: 'conversations',
      auth: 'account_or_key',
      query: s.object({
        limit: s.optional(s.integer({ min: 1, max: 100, text: true, description: 'Conversations per page, 1 to 100; default 20' })),
        starting_after: s.optional(
          s.string({ ...conversationIdRules, description: 'Cursor: the last id of the previous page (400 if it is not a conversation of this list)' }),
        ),
        status: s.optional(s.enum(['active', 'ended'] as const, 'active: not ended (including escalated); ended')),
        escalated: s.optional(s.enum(['true', 'false'] as const, 'true: only conversations handed to a person; false: only the others')),
        avatar: s.optional(s.string({ ...avatarIdRules, description: 'Only conversations with this avatar' })),
        mode: s.optional(s.enum(['live', 'test'] as const, 'With an account token: one mode only (default both). With an API key: its own mode (another is refused)')),
        created_after: s.optional(isoTime('Only conversations created after this time (ISO 8601; a bare date is midnight UTC)')),
        created_before: s.optional(isoTime('Only conversations created before this time (ISO 8601; a bare date is midnight UTC)')),
      }),
      response: conversationListSchema.json,
      async handle({ query, principal, service }) {
        const scope = accountScopeOf(principal);
        if (query.mode !== undefined && scope.mode !== undefined && query.mode !== scope.mode) {
          throw new ValidationError('mode', `mode must be ${scope.mode}: an API key lists the conversations of its own mode`);
        }
        const page = await service.conversations.list(
          { accountId: scope.accountId, ...((scope.mode ?? query.mode) !== undefined && { mode: scope.mode ?? query.mode }) },
          {
            limit: query.limit ?? 20,
            ...(query.starting_after !== undefined && { startingAfter: query.starting_after }),
            ...(query.status !== undefined && { status: query.status }),
            ...(query.escalated !== undefined && { escalated: query.escalated === 'true' }),
            ...(query.avatar !== undefined && { avatarId: query.avatar }),
            ...(query.created_after !== undefined && { createdAfter: epochMs('created_after', query.created_after) }),
            ...(query.created_before !== undefined && { createdBefore: epochMs('created_before', query.created_before) }),
          },
        );
        return { object: 'list', data: page.items.map(presentConversationSummary), has_more: page.hasMore };
      },
    }),
  ];
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

const isoTime = (description: string) =>
  s.string({ pattern: ISO_TIME, patternHint: 'be an ISO 8601 time such as 2026-01-31T12:00:00Z or a date such as 2026-01-31', format: 'date-time', description });

/** An ISO 8601 time (shaped as {@link ISO_TIME}) as epoch ms; an impossible one (2026-02-30, 25:00) is a 400. */
function epochMs(field: string, value: string): number {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day || month < 1 || month > 12) {
    throw new ValidationError(field, `${field} must be a real time, got '${value}'`);
  }
  return ms;
}
