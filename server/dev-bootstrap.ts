import type { AvatarService } from '../core/index.js';

export const DEMO_EMAIL = 'demo@avatar-service.local';

export interface BootstrapResult {
  accountId: string;
  /** The new test key, when one was created on this start. */
  key: string | undefined;
  password: string | undefined;
}

/**
 * Development mode: create the demo account and a test key if they do not exist, so a new user
 * can try the API at once (the key is printed once) and the demo page can mint sessions.
 */
export async function devBootstrap(service: AvatarService): Promise<BootstrapResult> {
  const demo = await service.store.accounts.findByEmail(DEMO_EMAIL);
  if (demo) return { accountId: demo.id, key: undefined, password: undefined };
  const password = `demo-${service.ids.next('key').slice(-12)}`;
  const account = await service.accounts.createAccount({ email: DEMO_EMAIL, password, tier: 'creator' });
  const { key } = await service.accounts.createApiKey(account.id, { name: 'Development key (created on first start)', mode: 'test' });
  return { accountId: account.id, key, password };
}
