import type { AccountRecord, Tier } from '../ports/store.js';

export interface AccountLimits {
  /** Requests per minute, across all of the account's keys and sessions. */
  requestsPerMinute: number;
  /** Open SSE streams plus realtime sockets at once. */
  connections: number;
}

/**
 * Tiers of docs/api.md, Limits (the specification's "paid 60" is the creator tier). Enterprise accounts
 * carry their own numbers; without overrides they get the pro limits.
 */
export const TierLimits: Readonly<Record<Tier, AccountLimits>> = Object.freeze({
  free: { requestsPerMinute: 10, connections: 2 },
  creator: { requestsPerMinute: 60, connections: 10 },
  pro: { requestsPerMinute: 300, connections: 50 },
  enterprise: { requestsPerMinute: 300, connections: 50 },
});

export function limitsOf(account: AccountRecord): AccountLimits {
  const base = TierLimits[account.tier];
  return {
    requestsPerMinute: account.rpmOverride ?? base.requestsPerMinute,
    connections: account.connectionsOverride ?? base.connections,
  };
}
