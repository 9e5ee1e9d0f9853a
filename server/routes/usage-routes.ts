import { s } from '../schema/schema.js';
import { defineRoute } from '../http/route.js';
import type { Route } from '../http/route.js';
import { ownerOf } from '../http/owner.js';
import { usageReportSchema } from '../http/resource-schemas.js';

const day = s.string({ pattern: /^\d{4}-\d{2}-\d{2}$/, patternHint: 'be a date like 2026-01-31' });

/** `GET /v1/usage`: the caller's metered usage (its key's mode) per UTC day. */
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
  ];
}
