import { importOptional } from '../util/optional-import.js';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { ServiceError } from '../errors.js';
import { RedisConnectionCounter } from './redis-connection-counter.js';
import { RedisMessageBus } from './redis-message-bus.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

export interface RedisOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  url: string;
  /** Names this process's connection leases; unique per process (a random UUID by default). */
  nodeId?: string;
  /** Life of a connection lease without a heartbeat (default 30 s): a crashed process's slots come free after it. */
  leaseTtlMs?: number;
  /** Prefix of every key and channel (default `avatar-service:`), so deployments can share a server. */
  prefix?: string;
  clock?: Clock;
}

/** What a deployment of several processes shares through Redis, ready to hand to `createAvatarService`. */
export interface RedisScaleOut {
  readonly rateLimiter: RedisRateLimiter;
  readonly connectionCounter: RedisConnectionCounter;
  readonly bus: RedisMessageBus;
  /** A new connection with the same settings, connected (socket.io's Redis adapter needs a publisher and a subscriber). */
  connection(): Promise<Redis>;
  /** Resolves when Redis answers PING (health checks); rejects otherwise. */
  ping(): Promise<void>;
  /** Gives back this process's connection leases and closes every connection opened here. */
  close(): Promise<void>;
}

export const DEFAULT_LEASE_TTL_MS = 30_000;

/**
 * Connects to Redis — ioredis is loaded here, only when a deployment asks for Redis — and builds
 * the rate limiter, the connection-slot leases and the message bus on it. Fails when Redis does
 * not answer, so a misconfigured URL stops start-up rather than the first request.
 */
export async function openRedis(options: RedisOptions): Promise<RedisScaleOut> {
  const { Redis } = await importOptional<typeof import('ioredis')>('ioredis', 'REDIS_URL');
  const prefix = options.prefix ?? 'avatar-service:';
  // A command fails after one reconnection attempt instead of waiting in a queue: a request
  // limited by an unreachable Redis gets an error quickly. No ready check: during one, ioredis
  // writes some commands (PUBLISH among them) at once while holding back those queued before,
  // which would reorder a reply's events.
  const settings = { lazyConnect: true, maxRetriesPerRequest: 1, enableReadyCheck: false } as const;
  const client = new Redis(options.url, settings);
  const opened: Redis[] = [client];
  const open = (redis: Redis) => {
    opened.push(redis);
    return redis;
  };
  // Errors are reported by the commands that meet them; ioredis reconnects by itself.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new ServiceError('unavailable', `Redis at ${redactUrl(options.url)} did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const subscriber = open(client.duplicate());
  subscriber.on('error', () => undefined);
  const connectionCounter = new RedisConnectionCounter(client, {
    prefix,
    nodeId: options.nodeId ?? randomUUID(),
    leaseTtlMs: options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
  });
  return {
    rateLimiter: new RedisRateLimiter(client, options.clock ?? systemClock, prefix),
    connectionCounter,
    bus: new RedisMessageBus(client, subscriber, prefix),
    async connection() {
      const copy = open(client.duplicate());
      copy.on('error', () => undefined);
      await copy.connect();
      return copy;
    },
    async ping() {
      await client.ping();
    },
    async close() {
      await connectionCounter.close();
      await Promise.all(opened.map((redis) => redis.quit().catch(() => redis.disconnect())));
    },
  };
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}
