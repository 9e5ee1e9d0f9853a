import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import type { Owner } from '../../../core/index.js';
import { scriptedProvider } from '../../support/scripted-provider.js';
import { startCoreService } from '../../support/core-service.js';

const DAY = 86_400_000;
/** 23:59:59.999 UTC on 2026-03-14: the last millisecond of a day. */
const LAST_MS = Date.UTC(2026, 2, 14, 23, 59, 59, 999);
let n = 0;

async function setup(t: TestContext, start = LAST_MS) {
  const i = n++;
  const { service, clock } = await startCoreService(t, start, { aiProviders: [scriptedProvider({ reply: 'One two three.' })] });
  const account = await service.accounts.createAccount({ email: `usage${i}@example.com`, password: 'password-123' });
  const live: Owner = { accountId: account.id, mode: 'live' };
  const test: Owner = { accountId: account.id, mode: 'test' };
  return { service, clock, usage: service.usage, live, test };
}

describe('UsageService', () => {
  it('adds up usage of one owner within a UTC day', async (t) => {
    const { usage, live } = await setup(t, Date.UTC(2026, 2, 14, 9));
    await usage.record(live, { aiTokens: 120 });
    await usage.record(live, { ttsCharacters: 45 });
    await usage.record(live, { aiTokens: 30, ttsCharacters: 5 });
    const report = await usage.report(live);
    assert.deepEqual(report.days, [{ day: '2026-03-14', aiTokens: 150, ttsCharacters: 50 }]);
    assert.deepEqual(report.total, { aiTokens: 150, ttsCharacters: 50 });
  });

  it('starts a new day at midnight UTC on the clock', async (t) => {
    const { usage, live, clock } = await setup(t);
    await usage.record(live, { aiTokens: 1 });
    clock.advance(1); // 2026-03-15T00:00:00.000Z
    await usage.record(live, { aiTokens: 10 });
    clock.advance(DAY - 1); // the last millisecond of the 15th
    await usage.record(live, { aiTokens: 100 });
    clock.advance(DAY + 1); // 2026-03-17T00:00:00.000Z, skipping the 16th
    await usage.record(live, { ttsCharacters: 7 });
    const report = await usage.report(live);
    assert.equal(report.to, '2026-03-17');
    assert.deepEqual(report.days, [
      { day: '2026-03-14', aiTokens: 1, ttsCharacters: 0 },
      { day: '2026-03-15', aiTokens: 110, ttsCharacters: 0 },
      { day: '2026-03-17', aiTokens: 0, ttsCharacters: 7 },
    ]);
    assert.deepEqual(report.total, { aiTokens: 111, ttsCharacters: 7 });
  });

  it('keeps live and test usage apart, and accounts apart', async (t) => {
    const { service, usage, live, test } = await setup(t);
    const other = await service.accounts.createAccount({ email: 'other@example.com', password: 'password-123' });
    await usage.record(live, { aiTokens: 500 });
    await usage.record(test, { aiTokens: 7, ttsCharacters: 3 });
    await usage.record({ accountId: other.id, mode: 'live' }, { aiTokens: 9000 });
    assert.deepEqual((await usage.report(live)).days, [{ day: '2026-03-14', aiTokens: 500, ttsCharacters: 0 }]);
    assert.deepEqual((await usage.report(test)).days, [{ day: '2026-03-14', aiTokens: 7, ttsCharacters: 3 }]);
    assert.deepEqual((await usage.report({ accountId: other.id, mode: 'test' })).days, []);
  });

  it('stores nothing for zero usage', async (t) => {
    const { usage, live } = await setup(t);
    await usage.record(live, {});
    await usage.record(live, { aiTokens: 0, ttsCharacters: 0 });
    assert.deepEqual(await usage.report(live), { from: '2026-02-13', to: '2026-03-14', total: { aiTokens: 0, ttsCharacters: 0 }, days: [] });
  });

  it('reports the last 30 days by default, and any inclusive range asked for', async (t) => {
    const { usage, live, clock } = await setup(t);
    for (let day = 0; day < 40; day++) {
      await usage.record(live, { aiTokens: day + 1 });
      clock.advance(DAY);
    }
    clock.advance(-DAY); // back on the last day recorded: 2026-04-22
    const last30 = await usage.report(live);
    assert.deepEqual([last30.from, last30.to, last30.days.length], ['2026-03-24', '2026-04-22', 30]);
    assert.equal(last30.total.aiTokens, [...Array(30).keys()].reduce((sum, i) => sum + 11 + i, 0));
    const range = await usage.report(live, { from: '2026-03-14', to: '2026-03-16' });
    assert.deepEqual(range.days.map((d) => [d.day, d.aiTokens]), [['2026-03-14', 1], ['2026-03-15', 2], ['2026-03-16', 3]]);
    const single = await usage.report(live, { from: '2026-04-22', to: '2026-04-22' });
    assert.deepEqual(single.total.aiTokens, 40);
    const fromOnly = await usage.report(live, { from: '2026-04-20' });
    assert.deepEqual([fromOnly.to, fromOnly.days.length], ['2026-04-22', 3]);
  });

  it('refuses dates that are not real calendar days, and a range that ends before it starts', async (t) => {
    const { usage, live } = await setup(t);
    for (const value of ['2026-02-30', '2026-13-01', '2026-3-1', '14.03.2026', '2026-03-14T00:00:00Z', '']) {
      await assert.rejects(usage.report(live, { from: value, to: '2026-03-14' }), { code: 'invalid_request', field: 'from' }, value);
      await assert.rejects(usage.report(live, { from: '2026-01-01', to: value }), { code: 'invalid_request', field: 'to' }, value);
    }
    await assert.rejects(usage.report(live, { from: '2026-03-15', to: '2026-03-14' }), { code: 'invalid_request', field: 'from' });
    await usage.report(live, { from: '2024-02-29', to: '2024-02-29' });
  });

  it('meters a conversation reply to its owner and mode, on the day it finished', async (t) => {
    const { service, usage, live, test } = await setup(t);
    const conversation = await service.conversations.create(test, { avatarId: 'luna-001', ttsProvider: 'browser' });
    const reply = await service.conversations.sendMessage(test, conversation.id, 'count to three');
    assert.ok(reply.aiTokens > 0);
    assert.deepEqual((await usage.report(test)).days, [{ day: '2026-03-14', aiTokens: reply.aiTokens, ttsCharacters: 0 }]);
    assert.deepEqual((await usage.report(live)).days, []);
  });

  it('daily: every day of the window up to the clock\'s day, usage and conversations bucketed by UTC day, modes apart or together', async (t) => {
    const { service, usage, live, test, clock } = await setup(t);
    await usage.record(live, { aiTokens: 1, ttsCharacters: 2 });
    await service.conversations.create(live, { avatarId: 'luna-001' });
    await service.conversations.create(test, { avatarId: 'luna-001' });
    clock.advance(1); // 2026-03-15T00:00:00.000Z
    await usage.record(test, { aiTokens: 10 });
    await service.conversations.create(test, { avatarId: 'luna-001' });
    clock.advance(2 * DAY); // the 17th
    const both = await usage.daily({ accountId: live.accountId }, 4);
    assert.deepEqual([both.from, both.to, both.mode], ['2026-03-14', '2026-03-17', undefined]);
    assert.deepEqual(both.days, [
      { day: '2026-03-14', aiTokens: 1, ttsCharacters: 2, conversations: 2 },
      { day: '2026-03-15', aiTokens: 10, ttsCharacters: 0, conversations: 1 },
      { day: '2026-03-16', aiTokens: 0, ttsCharacters: 0, conversations: 0 },
      { day: '2026-03-17', aiTokens: 0, ttsCharacters: 0, conversations: 0 },
    ]);
    assert.deepEqual(both.total, { aiTokens: 11, ttsCharacters: 2, conversations: 3 });
    const onlyTest = await usage.daily(test, 3);
    assert.deepEqual(onlyTest.days.map((d) => [d.day, d.aiTokens, d.conversations]), [
      ['2026-03-15', 10, 1],
      ['2026-03-16', 0, 0],
      ['2026-03-17', 0, 0],
    ], 'the 14th is outside a 3-day window; live is left out');
    for (const days of [0, 367, 1.5]) await assert.rejects(usage.daily(test, days), { code: 'invalid_request', field: 'days' });
  });
});
