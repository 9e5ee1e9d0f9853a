import { randomBytes } from 'node:crypto';
import type { AvatarService, BlobStore } from '../../core/index.js';

/**
 * One dependency `/health` reports: the database and blob store always, Redis (or anything a
 * host adds) when configured. `check` resolves to the problem in one line, or undefined when the
 * dependency answers; a throw counts as a problem, and so does no answer within the time limit.
 */
export interface DependencyCheck {
  /** `database`, `blob_store`, `redis`…: the key in the report. */
  name: string;
  check(): Promise<string | undefined>;
}

export interface DependencyStatus {
  status: 'ok' | 'failing';
  /** How long the check took. */
  ms: number;
  /** What is wrong, when failing. */
  problem?: string;
}

export interface HealthReport {
  ok: boolean;
  checks: Record<string, DependencyStatus>;
}

/** A check that does not answer within this is failing (a hung database must not hang the probe). */
const CHECK_TIMEOUT_MS = 2_000;

/** Whether the server is stopping: readiness fails from the first moment of a graceful shutdown. */
export class Lifecycle {
  #stopping = false;
  get stopping(): boolean {
    return this.#stopping;
  }
  stop(): void {
    this.#stopping = true;
  }
}

/**
 * Runs every check at once, each bounded by {@link CHECK_TIMEOUT_MS}. Probes arriving while a run
 * is in progress share it, so a busy load balancer cannot pile checks onto a slow database.
 */
export class HealthChecks {
  readonly #checks: readonly DependencyCheck[];
  #running: Promise<HealthReport> | undefined;

  constructor(checks: readonly DependencyCheck[]) {
    this.#checks = checks;
  }

  run(): Promise<HealthReport> {
    this.#running ??= this.#runAll().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #runAll(): Promise<HealthReport> {
    const results = await Promise.all(this.#checks.map(async (dependency) => [dependency.name, await runOne(dependency)] as const));
    return { ok: results.every(([, result]) => result.status === 'ok'), checks: Object.fromEntries(results) };
  }
}

async function runOne(dependency: DependencyCheck): Promise<DependencyStatus> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
  });
  let problem: string | undefined;
  try {
    problem = await Promise.race([dependency.check(), timeout]);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
  const ms = Math.round(performance.now() - started);
  return problem === undefined ? { status: 'ok', ms } : { status: 'failing', ms, problem };
}

/** The database answers and takes writes (`store.problem()`: a full disk is a problem). */
export function databaseCheck(service: AvatarService): DependencyCheck {
  return { name: 'database', check: () => service.store.problem() };
}

/**
 * The blob store takes a write, shows it and deletes it: a small probe file under a name of this
 * process, so several nodes sharing one store do not meet.
 */
export function blobStoreCheck(blobs: BlobStore): DependencyCheck {
  const key = `health_${randomBytes(8).toString('hex')}.txt`;
  const probe = new TextEncoder().encode('ok');
  return {
    name: 'blob_store',
    async check() {
      await blobs.put(key, probe);
      const info = await blobs.stat(key);
      await blobs.delete(key);
      return info?.size === probe.length ? undefined : 'a file written could not be read back';
    },
  };
}
