import { s } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { MAX_DAILY_WINDOW, ValidationError, limitsOf } from '../../core/index.js';
import { accountScopeOf, ownerOf } from '../http/owner.js';
import { dailyUsageSchema, usageReportSchema } from '../http/resource-schemas.js';

const day = s.string({ pattern: /^\d{4}-\d{2}-\d{2}$/, patternHint: 'be a date like 2026-01-31' });

/**
 * `GET /v1/usage`: the caller's metered usage (its key's mode) per UTC day; `GET /v1/usage/daily`:
 * every day of a window with conversations, totals and limits, for the dashboard's chart.
 */
export function usageRoutes(): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/usage',
      summary: 'Usage per day: AI tokens and speech characters',
      tag: 'usage',
      auth: 'api_key',
      query: s.object({ from: s.optional(day), to: s.optional(day) }),
      response: usageReportSchema.json,
      async handle({ query, principal, service }) {
        const report = await service.usage.report(ownerOf(principal), {
          ...(query.from !== undefined && { from: query.from }),
          ...(query.to !== undefined && { to: query.to }),
        });
        return {
          from: report.from,
          to: report.to,
          total: { ai_tokens: report.total.aiTokens, tts_characters: report.total.ttsCharacters },
          days: report.days.map((d) => ({ date: d.day, ai_tokens: d.aiTokens, tts_characters: d.ttsCharacters })),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/usage/daily',
      summary: 'Every day of the last N days: AI tokens, speech characters, conversations; totals; tier limits',
      tag: 'usage',
      auth: 'account_or_key',
      query: s.object({
        days: s.optional(s.integer({ min: 1, max: MAX_DAILY_WINDOW, text: true, description: `Days up to today, 1 to ${MAX_DAILY_WINDOW}; default 30` })),
        mode: s.optional(s.enum(['live', 'test'] as const, 'With an account token: one mode only (default both added together). With an API key: its own mode')),
      }),
      response: dailyUsageSchema.json,
      async handle({ query, principal, service }) {
        const scope = accountScopeOf(principal);
        if (query.mode !== undefined && scope.mode !== undefined && query.mode !== scope.mode) {
          throw new ValidationError('mode', `mode must be ${scope.mode}: an API key reports the usage of its own mode`);
        }
        const mode = scope.mode ?? query.mode;
        const [report, account] = await Promise.all([
          service.usage.daily({ accountId: scope.accountId, ...(mode !== undefined && { mode }) }, query.days ?? 30),
          service.accounts.getAccount(scope.accountId),
        ]);
        const limits = limitsOf(account);
        const figures = (d: { aiTokens: number; ttsCharacters: number; conversations: number }) => ({
          ai_tokens: d.aiTokens,
          tts_characters: d.ttsCharacters,
          conversations: d.conversations,
        });
        return {
          from: report.from,
          to: report.to,
          mode: report.mode ?? null,
          tier: account.tier,
          limits: { requests_per_minute: limits.requestsPerMinute, connections: limits.connections },
          total: figures(report.total),
          days: report.days.map((d) => ({ date: d.day, ...figures(d) })),
        };
      },
    }),
  ];
}
