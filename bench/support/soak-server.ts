/**
 * The server under the soak test (bench/soak.ts), in a process of its own so its memory and
 * handles are not the load generator's. It is `avatar-service serve` (same `loadConfig()` from the
 * environment, same `startServer`) plus what the CLI cannot do: an enterprise account with limits
 * far above the load, and a way to read the process's heap and active resources from outside.
 *
 *   node dist/bench/support/soak-server.js
 *     env: PORT, HOST, PUBLIC_URL, DATA_DIR (a fresh directory), DEV_BOOTSTRAP=false, ACCESS_LOG=false
 *
 * stdout, one JSON object per line:
 *   {"type":"ready","url":…,"key":…,"pid":…}            once listening
 *   {"type":"sample","heap_used":…,…,"handles":…,"connection_slots":…}   on each SIGUSR2 (after a full GC)
 * SIGTERM closes the server (streams ended, service closed) and exits 0.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createServiceFromConfig, loadConfig, startServer } from '../../server/index.js';

// `global.gc` without `node --expose-gc`: the local speech engine starts its worker threads with
// the process's execArgv, and Node refuses `--expose-gc` there ("Initiated Worker with invalid
// execArgv flags"), so the flag is set at run time instead and `gc` taken from a fresh context.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const write = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const config = loadConfig();
const service = await createServiceFromConfig(config);
await service.store.migrate();
const account = await service.accounts.createAccount({ email: 'soak@example.com', password: 'soak-test-password', tier: 'enterprise' });
await service.accounts.setPlan(account.id, { tier: 'enterprise', requestsPerMinute: 100_000_000, connections: 100_000 });
const { key } = await service.accounts.createApiKey(account.id, { name: 'soak', mode: 'test' });
const running = await startServer(config, service);

process.on('SIGUSR2', () => void sample());

async function sample(): Promise<void> {
  // Connection slots the account holds (open SSE streams and sockets): 0 once every client left.
  const slots = await service.limits.openConnections(account.id);
  gc();
  const memory = process.memoryUsage();
  const resources = process.getActiveResourcesInfo();
  const byType: Record<string, number> = {};
  for (const type of resources) byType[type] = (byType[type] ?? 0) + 1;
  write({
    type: 'sample',
    rss: memory.rss,
    heap_used: memory.heapUsed,
    heap_total: memory.heapTotal,
    external: memory.external,
    array_buffers: memory.arrayBuffers,
    handles: resources.length,
    resources: byType,
    connection_slots: slots,
  });
}

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  const force = setTimeout(() => process.exit(2), 10_000);
  force.unref();
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('soak-server: close failed', error);
      process.exit(1);
    },
  );
});

write({ type: 'ready', url: running.url, key, pid: process.pid });
