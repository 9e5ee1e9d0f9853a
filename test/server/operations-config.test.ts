import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../server/config.js';
import { retentionOptionsFor } from '../../server/create-service.js';

const base = { DATA_DIR: '/tmp/avatar-operations-config', JWT_SECRET: 'a-secret-long-enough-for-the-config-check' };
const config = (env: Record<string, string>) => loadConfig({ ...base, ...env });

describe('operations configuration', () => {
  it('defaults: info logs with request lines, no metrics token, 15 s to shut down, retention off', () => {
    const c = config({});
    assert.deepEqual(
      [c.logLevel, c.logFormat, c.accessLog, c.metricsToken, c.shutdownTimeoutMs, c.audioRetentionMs, c.conversationRetentionMs],
      ['info', undefined, true, undefined, 15_000, undefined, undefined],
    );
    assert.deepEqual(retentionOptionsFor(c), {});
  });

  it('reads levels, the token, the shutdown bound and retention periods in m, h and d (off: kept)', () => {
    const c = config({
      LOG_LEVEL: 'WARN',
      LOG_FORMAT: 'pretty',
      METRICS_TOKEN: 'a-metrics-token-long-enough',
      SHUTDOWN_TIMEOUT_MS: '5000',
      AUDIO_RETENTION: '30d',
      CONVERSATION_RETENTION: '36h',
    });
    assert.deepEqual(
      [c.logLevel, c.logFormat, c.metricsToken, c.shutdownTimeoutMs, c.audioRetentionMs, c.conversationRetentionMs],
      ['warn', 'pretty', 'a-metrics-token-long-enough', 5_000, 30 * 86_400_000, 36 * 3_600_000],
    );
    assert.deepEqual(retentionOptionsFor(c), { audioMs: 30 * 86_400_000, conversationsMs: 36 * 3_600_000 });
    assert.equal(config({ AUDIO_RETENTION: 'off', CONVERSATION_RETENTION: '90m' }).audioRetentionMs, undefined);
    assert.equal(config({ CONVERSATION_RETENTION: '90m' }).conversationRetentionMs, 90 * 60_000);
  });

  it('stops on bad values with one line naming the variable', () => {
    for (const [env, variable, words] of [
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', /must be one of fatal, error, warn, info, debug, trace, silent/],
      [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT', /must be json or pretty/],
      [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN', /at least 16 characters/],
      [{ SHUTDOWN_TIMEOUT_MS: '10s' }, 'SHUTDOWN_TIMEOUT_MS', /integer/],
      [{ AUDIO_RETENTION: '30' }, 'AUDIO_RETENTION', /duration like 30d, 12h or 90m/],
      [{ AUDIO_RETENTION: '1w' }, 'AUDIO_RETENTION', /duration like 30d/],
      [{ CONVERSATION_RETENTION: '30m' }, 'CONVERSATION_RETENTION', /at least 1h/],
    ] as const) {
      assert.throws(
        () => config(env),
        (error: unknown) => error instanceof ConfigError && error.variable === variable && words.test(error.message) && !error.message.includes('\n'),
        JSON.stringify(env),
      );
    }
  });
});
