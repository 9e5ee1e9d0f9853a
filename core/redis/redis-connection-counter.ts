import type { Redis } from 'ioredis';
import type { ConnectionCounter, ConnectionLease } from '../access/connection-counter.js';
import type { LuaScript } from './lua.js';
import { luaScript } from './lua.js';
import { orUnavailable } from './redis-unavailable.js';

/** Redis's own clock in milliseconds, so every process judges expiry by one clock. */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Drops expired leases, then adds ARGV[2] expiring in ARGV[3] ms if fewer than ARGV[1] remain. 1 = taken. */
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/**
 * Pushes the expiry of this process's leases ARGV[2..] to ARGV[1] ms from now — only of leases
 * still there (XX): a refresh racing a release (a script resent after NOSCRIPT lands after the
 * ZREM) never brings a released lease back. A lease that expired because this process stalled
 * longer than the lease time is not counted again until its connection closes.
 */
const REFRESH = `${NOW}
local expiry = now + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', expiry, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 0`;

/** Leases not yet expired. */
const COUNT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`;

export interface RedisConnectionCounterOptions {
  /** Key prefix of the deployment. */
  prefix: string;
  /** Names this process's leases (unique per process). */
  nodeId: string;
  /**
   * How long a lease lives without a heartbeat; this process refreshes its leases every third of
   * it. A process that dies frees its slots this long after its last heartbeat.
   */
  leaseTtlMs: number;
}

/**
 * Connection slots shared by several processes: one sorted set per key whose members are leases
 * scored by their expiry time. A running process keeps its leases alive with a heartbeat; the
 * leases of a process that crashed simply expire, so its slots come free without anyone's help.
 */
export class RedisConnectionCounter implements ConnectionCounter {
  readonly #acquire: LuaScript;
  readonly #refresh: LuaScript;
  readonly #count: LuaScript;
  readonly #client: Redis;
  readonly #options: RedisConnectionCounterOptions;
  /** Leases held by this process: member → set key. */
  readonly #held = new Map<string, string>();
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #next = 0;

  constructor(client: Redis, options: RedisConnectionCounterOptions) {
    this.#client = client;
    this.#options = options;
    this.#acquire = luaScript(client, ACQUIRE, 1);
    this.#refresh = luaScript(client, REFRESH, 1);
    this.#count = luaScript(client, COUNT, 1);
    this.#heartbeat = setInterval(() => void this.heartbeat().catch(() => undefined), Math.max(1, Math.floor(options.leaseTtlMs / 3)));
    this.#heartbeat.unref();
  }

  async acquire(key: string, max: number): Promise<ConnectionLease | undefined> {
    const setKey = this.#key(key);
    const member = `${this.#options.nodeId}:${++this.#next}`;
    const taken = await orUnavailable('Connection counting', () => this.#acquire([setKey], [max, member, this.#options.leaseTtlMs]));
    if (taken !== 1) return undefined;
    this.#held.set(member, setKey);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#held.delete(member);
        // If this fails (Redis unreachable), the lease expires on its own.
        this.#client.zrem(setKey, member).catch(() => undefined);
      },
    };
  }

  async count(key: string): Promise<number> {
    return Number(await orUnavailable('Connection counting', () => this.#count([this.#key(key)], [])));
  }

  /** Refreshes every lease this process holds (run every third of the lease time). */
  async heartbeat(): Promise<void> {
    const bySet = new Map<string, string[]>();
    for (const [member, setKey] of this.#held) {
      const members = bySet.get(setKey);
      if (members) members.push(member);
      else bySet.set(setKey, [member]);
    }
    await Promise.all([...bySet].map(([setKey, members]) => this.#refresh([setKey], [this.#options.leaseTtlMs, ...members])));
  }

  /** Stops the heartbeat and gives back the leases still held. */
  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    const held = [...this.#held];
    this.#held.clear();
    await Promise.all(held.map(([member, setKey]) => this.#client.zrem(setKey, member))).catch(() => undefined);
  }

  #key(key: string): string {
    return `${this.#options.prefix}conn:${key}`;
  }
}
