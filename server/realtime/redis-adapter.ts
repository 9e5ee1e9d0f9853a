import { importOptional } from '../../core/index.js';
import type { RedisScaleOut } from '../../core/index.js';
import type { RealtimeServer } from './socket-io-realtime.js';

/** What `io.adapter(…)` takes: how rooms reach the sockets of other processes. */
export type SocketIoAdapter = Parameters<RealtimeServer['adapter']>[0] & object;

/**
 * The official socket.io Redis adapter (loaded only here, only with `REDIS_URL`) on two
 * connections of its own: an emit to a conversation's room reaches its sockets on every process.
 */
export async function socketIoRedisAdapter(redis: RedisScaleOut): Promise<SocketIoAdapter> {
  const { createAdapter } = await importOptional<typeof import('@socket.io/redis-adapter')>('@socket.io/redis-adapter', 'REDIS_URL');
  const [publisher, subscriber] = await Promise.all([redis.connection(), redis.connection()]);
  return createAdapter(publisher, subscriber) as SocketIoAdapter;
}
