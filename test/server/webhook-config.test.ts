import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../server/config.js';
import { moderationOptionsFor } from '../../server/create-service.js';

const base = { DATA_DIR: '/tmp/avatar-webhook-config', JWT_SECRET: 'a-secret-long-enough-for-the-config-check' };
const config = (env: Record<string, string>) => loadConfig({ ...base, ...env });

describe('webhook and mail configuration', () => {
  it('defaults: 5s,30s,5m,1h; 10 s per attempt; insecure receivers allowed only outside production; .eml mail', () => {
    const dev = config({});
    assert.deepEqual(dev.webhookRetrySchedule, [5_000, 30_000, 300_000, 3_600_000]);
    assert.equal(dev.webhookTimeoutMs, 10_000);
    assert.equal(dev.allowInsecureWebhooks, true);
    assert.equal(dev.smtpUrl, undefined);
    assert.equal(dev.mailFrom, 'avatar-service <noreply@127.0.0.1>');
    assert.equal(config({ NODE_ENV: 'production' }).allowInsecureWebhooks, false);
    assert.equal(config({ NODE_ENV: 'production', ALLOW_INSECURE_WEBHOOKS: 'true' }).allowInsecureWebhooks, true);
    assert.equal(config({ PUBLIC_URL: 'https://avatars.example.com' }).mailFrom, 'avatar-service <noreply@avatars.example.com>');
  });

  it('reads a schedule in ms, s, m and h; an empty one means no retries', () => {
    assert.deepEqual(config({ WEBHOOK_RETRY_SCHEDULE: '250ms, 2s,1m,2h' }).webhookRetrySchedule, [250, 2_000, 60_000, 7_200_000]);
    assert.deepEqual(config({ WEBHOOK_RETRY_SCHEDULE: '' }).webhookRetrySchedule, []);
    assert.equal(config({ WEBHOOK_TIMEOUT: '3s' }).webhookTimeoutMs, 3_000);
    assert.equal(config({ SMTP_URL: 'smtps://user:pw@mail.example.com:465', MAIL_FROM: 'Avatars <hi@example.com>' }).smtpUrl, 'smtps://user:pw@mail.example.com:465');
  });

  it('stops on bad values, naming the variable', () => {
    for (const [env, variable] of [
      [{ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }, 'WEBHOOK_RETRY_SCHEDULE'],
      [{ WEBHOOK_RETRY_SCHEDULE: '5s,0s' }, 'WEBHOOK_RETRY_SCHEDULE'],
      [{ WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s' }, 'WEBHOOK_RETRY_SCHEDULE'],
      [{ WEBHOOK_RETRY_SCHEDULE: '200h' }, 'WEBHOOK_RETRY_SCHEDULE'],
      [{ WEBHOOK_TIMEOUT: 'ten' }, 'WEBHOOK_TIMEOUT'],
      [{ ALLOW_INSECURE_WEBHOOKS: 'maybe' }, 'ALLOW_INSECURE_WEBHOOKS'],
      [{ SMTP_URL: 'http://mail.example.com' }, 'SMTP_URL'],
      [{ MAIL_FROM: 'nobody' }, 'MAIL_FROM'],
      [{ MAIL_FROM: 'a@example.com\r\nBcc: x@example.com' }, 'MAIL_FROM'],
    ] as const) {
      assert.throws(() => config(env), (error: unknown) => error instanceof ConfigError && error.variable === variable, JSON.stringify(env));
    }
  });
});

describe('moderation configuration', () => {
  it('is off unless MODERATION_PROVIDER=openai, which needs an OpenAI key or base URL', () => {
    assert.equal(config({}).moderationProvider, undefined);
    assert.deepEqual(moderationOptionsFor(config({})), {});
    assert.equal(config({ MODERATION_PROVIDER: 'openai' }).moderationProvider, 'openai');
    assert.throws(() => moderationOptionsFor(config({ MODERATION_PROVIDER: 'openai' })), (e: unknown) => e instanceof ConfigError && e.variable === 'MODERATION_PROVIDER');
    assert.equal(moderationOptionsFor(config({ MODERATION_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-x' })).moderation?.provider, 'openai');
    assert.throws(() => config({ MODERATION_PROVIDER: 'perspective' }), (e: unknown) => e instanceof ConfigError && e.variable === 'MODERATION_PROVIDER');
  });
});
