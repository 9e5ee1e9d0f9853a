import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig, startServer } from '../server/index.js';
import type { RunningServer } from '../server/index.js';
import { freePort } from './e2e/chromium.js';
import { repoRoot } from './support/repo-root.js';

/**
 * The README's quick start, as a new user follows it: `npm start` (here `startServer` with the
 * same defaults, DEV_BOOTSTRAP on) prints a test key; then each `curl` of the README's block is
 * run as written — its headers, body, method and URL parsed from README.md — with `$KEY`, `$BASE`
 * and `conv_…` filled in, and each answer compared with the `# →` line documented under it.
 */

interface Curl {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The documented answer, `…` standing for anything. */
  expected: string | undefined;
}

/** Words of a shell command line: single and double quotes group, nothing else is interpreted. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

function parseCurl(command: string, expected: string | undefined): Curl {
  const words = shellWords(command.replace(/#.*$/, ''));
  assert.equal(words.shift(), 'curl');
  const curl: Curl = { method: 'GET', url: '', headers: {}, body: undefined, expected };
  while (words.length > 0) {
    const word = words.shift()!;
    if (word === '-s') continue;
    if (word === '-H') {
      const [name, ...value] = words.shift()!.split(':');
      curl.headers[name!.trim().toLowerCase()] = value.join(':').trim();
    } else if (word === '-d') {
      curl.body = words.shift();
      if (curl.method === 'GET') curl.method = 'POST';
    } else if (word === '-X') curl.method = words.shift()!;
    else curl.url = word;
  }
  return curl;
}

/** The curl commands of the README's quick start, continuation lines joined. */
async function quickStart(): Promise<Curl[]> {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```bash\n(?:[^`]*?)```\s*[\s\S]*?```bash\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the quick start has a bash block with the curl walkthrough');
  const lines = block.replace(/\\\n\s*/g, ' ').split('\n');
  const curls: Curl[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('curl ')) return;
    const next = lines[i + 1] ?? '';
    curls.push(parseCurl(line, next.startsWith('# → ') ? next.slice(4) : undefined));
  });
  return curls;
}

/** A documented answer as a pattern: `…` is anything, the rest literal. */
function documented(expected: string): RegExp {
  return new RegExp(`^${expected.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?')}$`);
}

describe('README quick start, run as written', () => {
  let server: RunningServer;
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'avatar-quickstart-'));
    const port = await freePort();
    server = await startServer(loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), DEV_BOOTSTRAP: 'true', ACCESS_LOG: 'false' }));
  });
  after(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates, talks with an MP3 reply, reads the history with usage, ends (then 409) and deletes (then 404)', async () => {
    const key = server.bootstrap?.key;
    assert.ok(key, 'the first start prints a test key');
    const curls = await quickStart();
    assert.deepEqual(curls.map((c) => `${c.method} ${c.url.replace('$BASE', '')}`), [
      'POST /conversations',
      'POST /conversations/conv_…/messages',
      'GET /conversations/conv_…',
      'POST /conversations/conv_…/end',
      'DELETE /conversations/conv_…',
    ]);
    let conversationId = '';
    const answers: unknown[] = [];
    for (const curl of curls) {
      const fill = (text: string) => text.replaceAll('$KEY', key).replaceAll('$BASE', `${server.url}/v1`).replaceAll('conv_…', conversationId);
      if (curl.method === 'DELETE') {
        // Before deleting: the ended conversation takes no more messages.
        const late: Response = await fetch(`${server.url}/v1/conversations/${conversationId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ content: 'Still there?' }),
        });
        assert.equal(late.status, 409);
      }
      const res = await fetch(fill(curl.url), {
        method: curl.method,
        headers: Object.fromEntries(Object.entries(curl.headers).map(([name, value]) => [name, fill(value)])),
        ...(curl.body !== undefined && { body: fill(curl.body) }),
      });
      const text = await res.text();
      assert.ok(res.ok, `${curl.method} ${curl.url} → ${res.status} ${text}`);
      if (curl.expected) assert.match(text, documented(curl.expected), `${curl.method} ${curl.url}`);
      const body = JSON.parse(text) as { id?: string; audio_url?: string };
      if (!conversationId) conversationId = body.id!;
      if (body.audio_url) {
        // "An MP3 you can play": fetched while the conversation exists (deleting it removes it).
        const mp3 = new Uint8Array(await (await fetch(body.audio_url)).arrayBuffer());
        const isMp3 = (mp3[0] === 0x49 && mp3[1] === 0x44 && mp3[2] === 0x33) || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0);
        assert.ok(isMp3 && mp3.length > 2000, `audio_url serves an MP3 (${mp3.length} bytes)`);
      }
      answers.push(body);
    }

    const [, reply, history] = answers as [unknown, { audio_url: string; content: string }, { messages: unknown[]; usage: { ai_tokens: number; tts_characters: number } }];
    assert.match(reply.content, /Sam/, 'the reply uses the name from the message');
    assert.ok(reply.audio_url, 'the reply has audio');
    assert.deepEqual(history.messages.map((m) => (m as { role: string }).role), ['user', 'assistant']);
    assert.ok(history.usage.ai_tokens > 0 && history.usage.tts_characters > 0, JSON.stringify(history.usage));
    // After the walkthrough: the conversation is gone.
    const gone = await fetch(`${server.url}/v1/conversations/${conversationId}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(gone.status, 404);
  });
});
