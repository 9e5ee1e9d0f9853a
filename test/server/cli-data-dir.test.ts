import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, killCli, runCli, startCli } from '../support/processes.js';
import type { Cli, CliRun as Run } from '../support/processes.js';

/**
 * The CLI run as an operator runs it: from whatever folder the shell is in. Server and CLI must
 * agree on one data folder (DATA_DIR, else the default under the home folder), and the commands
 * that need a server's data must refuse — saying where they looked — rather than start empty data
 * whose keys and tokens that server has never heard of.
 */
describe('CLI from another folder', () => {
  let root: string;
  let home: string;
  let server: Cli | undefined;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'avatar-cli-dirs-'));
    home = join(root, 'home');
    await mkdir(home);
    for (const folder of ['ops', 'elsewhere', 'server']) await mkdir(join(root, folder));
  });
  after(async () => {
    await killCli(server);
    await rm(root, { recursive: true, force: true });
  });

  function cli(cwd: string, env: Record<string, string>, ...args: string[]): Promise<Run> {
    return runCli(args, { cwd, env });
  }
  const json = (run: Run) => {
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout) as Record<string, string>;
  };

  it('uses the same default folder from any current folder, says so, and its tokens work on the server', async () => {
    const env = { HOME: home };
    const expected = join(home, '.local', 'share', 'avatar-service');
    const created = await cli(join(root, 'ops'), env, 'account', 'create', '--email', 'ops@example.com', '--password', 'correct horse');
    json(created);
    assert.equal(created.stderr, `avatar-service: used the data folder ${expected} (the default; set DATA_DIR to use another)\n`);
    assert.ok(existsSync(join(expected, 'avatar.db')));
    assert.ok(!existsSync(join(root, 'ops', 'data')), 'nothing is created in the current folder');

    const key = json(await cli(join(root, 'elsewhere'), env, 'keys', 'create', '--email', 'ops@example.com', '--name', 'backend'));
    const token = json(await cli(join(root, 'elsewhere'), env, 'token', '--email', 'ops@example.com'));

    const port = await freePort();
    // startCli gives the child only PATH and these variables, and its own current folder is the test's.
    server = await startCli({ HOME: home, PORT: String(port), ACCESS_LOG: 'false', DEV_BOOTSTRAP: 'false' });
    assert.match(server.output(), new RegExp(`Using the data folder ${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(the default`));
    const keys = await fetch(`http://127.0.0.1:${port}/v1/api-keys`, { headers: { authorization: `Bearer ${token.token}` } });
    assert.equal(keys.status, 200, 'the server accepts the token the CLI minted elsewhere');
    const listed = (await keys.json()) as { api_keys: { id: string }[] };
    assert.ok(listed.api_keys.some((k) => k.id === key.id), 'and knows the key the CLI created elsewhere');
  });

  it('refuses keys and token where there is no data, naming the folder it looked in, and creates nothing', async () => {
    const empty = join(root, 'empty-home');
    await mkdir(empty);
    const expected = join(empty, '.local', 'share', 'avatar-service');
    for (const args of [['keys', 'list', '--email', 'ops@example.com'], ['token', '--email', 'ops@example.com'], ['keys', 'create', '--email', 'a@b.c', '--name', 'x']]) {
      const run = await cli(join(root, 'elsewhere'), { HOME: empty }, ...args);
      assert.equal(run.code, 1, args.join(' '));
      assert.equal(run.stdout, '');
      assert.equal(
        run.stderr,
        `avatar-service: DATA_DIR: no data folder at ${expected} (DATA_DIR is unset, so the default ${expected} is used); start the server once (npm start) or set DATA_DIR to the data folder the server uses\n`,
      );
    }
    assert.ok(!existsSync(expected));

    const bare = join(root, 'bare');
    await mkdir(bare);
    const run = await cli(join(root, 'elsewhere'), { DATA_DIR: bare }, 'token', '--email', 'ops@example.com');
    assert.equal(run.code, 1);
    assert.equal(run.stderr, `avatar-service: DATA_DIR: no database at ${join(bare, 'avatar.db')} (DATA_DIR is ${bare}); start the server once (npm start) or set DATA_DIR to the data folder the server uses\n`);
    assert.ok(!existsSync(join(bare, 'avatar.db')) && !existsSync(join(bare, 'jwt-secret')));
  });

  it('says in one line naming DATA_DIR when the folder is a file or cannot be made', async () => {
    const file = join(root, 'a-file');
    await writeFile(file, 'not a folder');
    const isFile = await cli(root, { DATA_DIR: file }, 'migrate');
    assert.equal(isFile.code, 1);
    assert.equal(isFile.stderr, `avatar-service: DATA_DIR: ${file} is a file, not a folder (DATA_DIR is ${file}); set DATA_DIR to a folder\n`);

    const under = join(file, 'data');
    const cannot = await cli(root, { DATA_DIR: under }, 'serve');
    assert.equal(cannot.code, 1);
    assert.equal(cannot.stderr.split('\n').length, 2, cannot.stderr);
    assert.match(cannot.stderr, /^avatar-service: DATA_DIR: cannot create the data folder \(DATA_DIR is .*\): not a directory \(ENOTDIR\); set DATA_DIR to a folder this user can write\n$/);
  });
});
