import type { AvatarService, Principal, RateDecision } from '../../core/index.js';
import { ServiceError } from '../../core/index.js';

/**
 * The one rate decision of every door — REST requests, SSE streams, socket.io and WebSocket
 * handshakes and every message they carry: one request of the caller's account (across its keys
 * and sessions) or, anonymous, of its client address.
 */
export function countRequest(service: AvatarService, caller: Principal | { address: string }): Promise<RateDecision> {
  return service.limits.request('type' in caller ? { accountId: caller.type === 'account' ? caller.accountId : caller.owner.accountId } : caller);
}

/** Seconds until the decision's window resets (at least 1), for `Retry-After`. */
export const resetSeconds = (decision: RateDecision) => Math.max(1, Math.ceil(decision.resetMs / 1000));

/** Throws 429 `rate_limited` (with the wait) when the decision refused the request. */
export function refuseOverLimit(decision: RateDecision): void {
  if (decision.allowed) return;
  const resetS = resetSeconds(decision);
  throw new ServiceError('rate_limited', `Rate limit of ${decision.limit} requests per minute reached; retry in ${resetS} s`, {
    retryAfterS: resetS,
  });
}
