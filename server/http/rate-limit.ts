import type { Context } from 'koa';
import type { AvatarService, Principal, RateDecision } from '../../core/index.js';
import { countRequest, refuseOverLimit, resetSeconds } from '../edge/rate-decision.js';

/**
 * REST: counts the request, sets the `X-RateLimit-*` headers, and throws 429 over the limit. A
 * decision already made for this request (`ctx.state.rateDecision`, left by the hot-read lane
 * when it counted the request and then handed it on) is used instead of counting it twice.
 */
export async function applyRateLimit(ctx: Context, service: AvatarService, principal: Principal | undefined): Promise<void> {
  const decision = (ctx.state.rateDecision as RateDecision | undefined) ?? (await countRequest(service, principal ?? { address: ctx.ip }));
  ctx.set(rateLimitHeaders(decision));
  refuseOverLimit(decision);
}

/** The `X-RateLimit-*` headers of a decision. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(Math.max(0, decision.remaining)),
    'X-RateLimit-Reset': String(resetSeconds(decision)),
  };
}
