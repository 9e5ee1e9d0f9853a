import type { Context } from 'koa';
import type { AvatarService, Principal } from '../../core/index.js';
import { countRequest, refuseOverLimit, resetSeconds } from '../edge/rate-decision.js';

/** REST: counts the request, sets the `X-RateLimit-*` headers, and throws 429 over the limit. */
export async function applyRateLimit(ctx: Context, service: AvatarService, principal: Principal | undefined): Promise<void> {
  const decision = await countRequest(service, principal ?? { address: ctx.ip });
  ctx.set({
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(Math.max(0, decision.remaining)),
    'X-RateLimit-Reset': String(resetSeconds(decision)),
  });
  refuseOverLimit(decision);
}
