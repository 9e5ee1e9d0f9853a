import type { Context } from 'koa';
import type { AvatarService, Principal } from '../../core/index.js';
import { ServiceError } from '../../core/index.js';

/**
 * Counts the request against its account (or, anonymous, its client address) and sets the
 * `X-RateLimit-*` headers; over the limit it throws 429 `rate_limited` with `Retry-After`.
 */
export async function applyRateLimit(ctx: Context, service: AvatarService, principal: Principal | undefined): Promise<void> {
  const subject = principal
    ? { accountId: principal.type === 'account' ? principal.accountId : principal.owner.accountId }
    : { address: ctx.ip };
  const decision = await service.limits.request(subject);
  const resetS = Math.max(1, Math.ceil(decision.resetMs / 1000));
  ctx.set({
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(Math.max(0, decision.remaining)),
    'X-RateLimit-Reset': String(resetS),
  });
  if (!decision.allowed) {
    throw new ServiceError('rate_limited', `Rate limit of ${decision.limit} requests per minute reached; retry in ${resetS} s`, {
      retryAfterS: resetS,
    });
  }
}
