import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { AvatarService, AvatarServiceOptions } from '../../core/index.js';
import { FsBlobStore, ManualClock, createAvatarService, createIdGenerator, createLocalProvider, createSqliteStore } from '../../core/index.js';

/**
 * The core as a library for a unit test: a fresh SQLite file and audio folder, a `ManualClock`
 * at `start` with ids made from it, the offline AI engine and no speech unless `options` say
 * otherwise. Started now; closed and removed when the test ends.
 */
export async function startCoreService(
  t: TestContext,
  start: number,
  options: Partial<Omit<AvatarServiceOptions, 'store' | 'blobs' | 'clock' | 'ids'>> = {},
): Promise<{ service: AvatarService; clock: ManualClock }> {
  const dir = await mkdtemp(join(tmpdir(), 'avatar-core-'));
  const clock = new ManualClock(start);
  const service = createAvatarService({
    store: await createSqliteStore({ filename: join(dir, 'avatar.db') }),
    blobs: new FsBlobStore(join(dir, 'audio')),
    jwtSecret: 'core-unit-tests-secret-0123456789abcdef',
    aiProviders: [createLocalProvider()],
    speechProviders: [],
    clock,
    ids: createIdGenerator(clock),
    ...options,
  });
  await service.start();
  t.after(async () => {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { service, clock };
}
