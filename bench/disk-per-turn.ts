/**
 * Disk growth per spoken turn with the offline engines, as `npm start` runs them (the `local` AI
 * and the `local` speech engine, SQLite): N turns over a few conversations, then the data folder
 * is measured — audio files (count and bytes), the database (after the service closed, so its
 * write-ahead log is folded in) and the blocks `du` reports — each divided by N. Also runs the
 * retention sweeper with AUDIO_RETENTION reached, to show what a sweep gives back.
 *
 *   npm run build && node dist/bench/disk-per-turn.js [--turns 60] [--conversations 6]
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FsBlobStore, ManualClock, createAvatarService, createIdGenerator, createLocalProvider, createLocalSpeechProvider, createSqliteStore } from '../core/index.js';

const { values } = parseArgs({ options: { turns: { type: 'string', default: '60' }, conversations: { type: 'string', default: '6' } } });
const turns = Number(values.turns);
const conversationCount = Number(values.conversations);
const PROMPTS = ['Hi, I am Sam. What can you do?', 'Tell me a joke.', 'What time is it?', 'Tell me about the sea.', 'How are you today?', 'What is 12 times 7?'];
const DAY = 86_400_000;

async function bytesIn(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const info = await stat(join(dir, name));
    if (!info.isFile()) continue;
    files++;
    bytes += info.size;
  }
  return { files, bytes };
}

const duKiB = (dir: string) => Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);

const dataDir = await mkdtemp(join(tmpdir(), 'avatar-disk-'));
const audioDir = join(dataDir, 'audio');
const clock = new ManualClock(Date.now());
const open = async () =>
  createAvatarService({
    store: await createSqliteStore({ filename: join(dataDir, 'avatar.db') }),
    blobs: new FsBlobStore(audioDir),
    jwtSecret: 'disk-per-turn-bench-secret-0123456789abcdef',
    aiProviders: [createLocalProvider()],
    speechProviders: [createLocalSpeechProvider()],
    clock,
    ids: createIdGenerator(clock),
    retention: { audioMs: DAY },
  });
try {
  let service = await open();
  await service.start();
  const account = await service.accounts.createAccount({ email: 'disk@example.com', password: 'password-disk' });
  const owner = { accountId: account.id, mode: 'test' as const };
  const conversations = [];
  for (let i = 0; i < conversationCount; i++) conversations.push((await service.conversations.create(owner, { avatarId: 'luna-001' })).id);
  await service.close();
  const empty = { db: await bytesIn(dataDir), audio: await bytesIn(audioDir), kib: duKiB(dataDir) };

  service = await open();
  await service.start();
  let sentences = 0;
  for (let i = 0; i < turns; i++) {
    const reply = await service.conversations.sendMessage(owner, conversations[i % conversationCount]!, PROMPTS[i % PROMPTS.length]!);
    sentences += reply.content.split(/(?<=[.!?])\s+/).length;
  }
  await service.close();
  const full = { db: await bytesIn(dataDir), audio: await bytesIn(audioDir), kib: duKiB(dataDir) };

  service = await open();
  await service.start();
  clock.advance(DAY + 1);
  const swept = await service.retention.sweep();
  await service.close();
  const after = { audio: await bytesIn(audioDir), kib: duKiB(dataDir) };

  const per = (n: number) => Math.round(n / turns);
  console.log(
    JSON.stringify(
      {
        turns,
        conversations: conversationCount,
        sentences_per_turn: Math.round((sentences / turns) * 10) / 10,
        per_turn: {
          audio_bytes: per(full.audio.bytes - empty.audio.bytes),
          audio_files: Math.round(((full.audio.files - empty.audio.files) / turns) * 100) / 100,
          database_bytes: per(full.db.bytes - empty.db.bytes),
          du_bytes: per((full.kib - empty.kib) * 1024),
        },
        after_audio_retention_sweep: { replies_swept: swept.audioDeleted, audio_files_left: after.audio.files, du_bytes_per_turn_left: per((after.kib - empty.kib) * 1024) },
      },
      null,
      2,
    ),
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
