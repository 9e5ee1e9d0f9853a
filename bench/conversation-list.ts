/**
 * The account's conversation list (`ConversationRepository.listPage`, behind `GET /v1/conversations`)
 * and its per-day counts (`countByDay`, behind `GET /v1/usage/daily`) on SQLite, with the index of
 * migration 0007 (`conversations_by_created`) ÷ the same store after dropping it: the baseline is
 * the query plan the list would have on the older indexes (account and mode only), measured in
 * the same run on the same file. N conversations of one account (both modes, one a minute), plus
 * the same number of another account's; each query runs `--runs` times per round, rounds alternate.
 *
 *   npm run build && node dist/bench/conversation-list.js [--conversations 20000] [--runs 200] [--rounds 3]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import type { AccountRecord, ConversationRecord, Store } from '../core/index.js';
import { DEFAULT_SAFETY, createIdGenerator, createSqliteStore } from '../core/index.js';
import { percentile } from './support/bench-server.js';

const { values } = parseArgs({ options: { conversations: { type: 'string', default: '20000' }, runs: { type: 'string', default: '200' }, rounds: { type: 'string', default: '3' } } });
const N = Number(values.conversations);
const RUNS = Number(values.runs);
const ROUNDS = Number(values.rounds);
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

const dir = await mkdtemp(join(tmpdir(), 'bench-conversation-list-'));
const filename = join(dir, 'bench.db');
const store = await createSqliteStore({ filename });
await store.migrate();
const ids = createIdGenerator();
const account = (email: string): AccountRecord => ({ id: ids.next('acct'), email, passwordHash: 'x', tier: 'pro', rpmOverride: null, connectionsOverride: null, createdAt: T0 });
const owner = account('owner@example.com');
const other = account('other@example.com');
await store.accounts.create(owner);
await store.accounts.create(other);
const conversation = (of: AccountRecord, i: number): ConversationRecord => ({
  id: ids.next('conv'),
  accountId: of.id,
  mode: i % 3 === 0 ? 'live' : 'test',
  avatarId: i % 2 === 0 ? 'luna-001' : 'atlas-002',
  personaId: null,
  status: i % 5 === 0 ? 'ended' : 'active',
  aiProvider: 'local',
  aiModel: 'm',
  ttsProvider: 'local',
  voiceId: 'en-US-Neural2-F',
  systemPrompt: null,
  aiTokens: 0,
  ttsCharacters: 0,
  createdAt: T0 + i * 60_000,
  updatedAt: T0 + i * 60_000,
  endedAt: null,
  endReason: null,
  safety: DEFAULT_SAFETY,
  escalatedAt: null,
  escalationReason: null,
});
await store.transaction(async (tx) => {
  for (let i = 0; i < N; i++) {
    await tx.conversations.create(conversation(owner, i));
    await tx.conversations.create(conversation(other, i));
  }
});
const middle = (await store.conversations.listPage({ accountId: owner.id }, { limit: Math.floor(N / 2) }))!.at(-1)!.conversation.id;

const queries: [string, (s: Store) => Promise<unknown>][] = [
  ['first page of 20, both modes', (s) => s.conversations.listPage({ accountId: owner.id }, { limit: 21 })],
  ['first page of 20, test mode', (s) => s.conversations.listPage({ accountId: owner.id, mode: 'test' }, { limit: 21 })],
  ['page after a cursor in the middle', (s) => s.conversations.listPage({ accountId: owner.id }, { limit: 21, after: middle })],
  ['first page, status=ended and an avatar', (s) => s.conversations.listPage({ accountId: owner.id }, { limit: 21, status: 'ended', avatarId: 'atlas-002' })],
  ['countByDay over 30 days', (s) => s.conversations.countByDay({ accountId: owner.id }, T0, T0 + 30 * DAY)],
];

async function measure(query: (s: Store) => Promise<unknown>): Promise<number[]> {
  await query(store);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    await query(store);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

// The index is dropped and made again between rounds, on the same file, by a second connection.
const admin = new BetterSqlite3(filename);
const samples = new Map<string, { indexed: number[]; without: number[] }>(queries.map(([name]) => [name, { indexed: [], without: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const indexed of round % 2 === 0 ? [true, false] : [false, true]) {
    admin.exec(indexed ? 'create index if not exists conversations_by_created on conversations (account_id, created_at, id)' : 'drop index if exists conversations_by_created');
    for (const [name, query] of queries) samples.get(name)![indexed ? 'indexed' : 'without'].push(...(await measure(query)));
  }
}
admin.exec('create index if not exists conversations_by_created on conversations (account_id, created_at, id)');
admin.close();
await store.close();
await rm(dir, { recursive: true, force: true });

const results = queries.map(([name]) => {
  const { indexed, without } = samples.get(name)!;
  const p50 = percentile(indexed, 50);
  const baseline = percentile(without, 50);
  return { query: name, p50Ms: +p50.toFixed(3), p99Ms: +percentile(indexed, 99).toFixed(3), withoutIndexP50Ms: +baseline.toFixed(3), ratio: +(p50 / baseline).toFixed(4) };
});
console.log(JSON.stringify({ benchmark: 'conversation-list', conversations: N, otherAccountConversations: N, runs: RUNS, rounds: ROUNDS, results }, null, 2));
