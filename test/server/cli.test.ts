import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../support/processes.js';
import type { CliRun as Run } from '../support/processes.js';

describe('CLI', () => {
  let dataDir: string;
  before(async () => (dataDir = await mkdtemp(join(tmpdir(), 'avatar-cli-'))));
  after(() => rm(dataDir, { recursive: true, force: true }));

  function cli(...args: string[]): Promise<Run> {
    return runCli(args, { env: { DATA_DIR: dataDir } });
  }

  function json(run: Run): Record<string, unknown> {
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split('\n');
    assert.equal(lines.length, 1, 'one JSON object and nothing else on stdout');
    return JSON.parse(lines[0]!) as Record<string, unknown>;
  }

  it('migrates, creates an account and keys, lists, mints a token and revokes', async () => {
    assert.deepEqual(json(await cli('migrate')), { migrated: true });
    const account = json(await cli('account', 'create', '--email', 'Ops@Example.com', '--password', 'correct horse', '--tier', 'pro'));
    assert.match(String(account.id), /^acct_/);
    assert.equal(account.email, 'ops@example.com');
    assert.equal(account.tier, 'pro');

    const live = json(await cli('keys', 'create', '--email', 'ops@example.com', '--name', 'backend'));
    assert.equal(live.mode, 'live');
    assert.match(String(live.key), /^svc_live_/);
    const test = json(await cli('keys', 'create', '--email', 'ops@example.com', '--name', 'dev', '--test'));
    assert.match(String(test.key), /^svc_test_/);

    const list = json(await cli('keys', 'list', '--email', 'ops@example.com'));
    const keys = list.api_keys as { id: string; name: string }[];
    assert.deepEqual(keys.map((k) => k.name).sort(), ['backend', 'dev']);
    assert.ok(!JSON.stringify(list).includes(String(live.key)));

    const token = json(await cli('token', '--email', 'ops@example.com'));
    assert.equal(String(token.token).split('.').length, 3);

    assert.deepEqual(json(await cli('keys', 'revoke', '--id', String(live.id))), { deleted: true });
    const after = json(await cli('keys', 'list', '--email', 'ops@example.com'));
    assert.ok((after.api_keys as { id: string; revoked_at: string | null }[]).find((k) => k.id === live.id)?.revoked_at);
  });

  it('fails with one line on stderr and a non-zero code', async () => {
    const cases: [string[], RegExp][] = [
      [['account', 'create', '--password', 'whatever1'], /--email is required/],
      [['account', 'create', '--email', 'x@example.com', '--password', 'short'], /at least 8 characters/],
      [['keys', 'list', '--email', 'nobody@example.com'], /No account/],
      [['frobnicate'], /Unknown command 'frobnicate'/],
      [['keys', 'create', '--bogus'], /^avatar-service: unknown option --bogus\. Run avatar-service --help\n$/],
    ];
    for (const [args, message] of cases) {
      const run = await cli(...args);
      assert.notEqual(run.code, 0, args.join(' '));
      assert.equal(run.stdout, '');
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.match(run.stderr, message);
    }
  });

  it('says which port is taken when another server holds it', async () => {
    const { createServer } = await import('node:net');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const run = await runCli(['serve'], { env: { DATA_DIR: dataDir, PORT: String(port), ACCESS_LOG: 'false' } });
      assert.equal(run.code, 1);
      assert.equal(run.stderr, `avatar-service: PORT: 127.0.0.1:${port} is already in use (another server running?); set PORT to a free port\n`);
    } finally {
      holder.close();
    }
  });

  it('prints its version', async () => {
    const run = await cli('--version');
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  it('stops on bad configuration, naming the variable', async () => {
    const migrate = (env: Record<string, string>) => runCli(['migrate'], { env: { DATA_DIR: dataDir, ...env } });
    for (const [env, message] of [
      [{ PORT: 'eighty' }, /^avatar-service: PORT: must be an integer/],
      [{ JWT_SECRET: 'short' }, /^avatar-service: JWT_SECRET: must be at least 32 characters/],
    ] as const) {
      const child = await migrate(env);
      assert.equal(child.code, 1);
      assert.match(child.stderr, message);
    }
  });
});
