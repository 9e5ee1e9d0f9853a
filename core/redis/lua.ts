import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script registered on a client: sent once, then run by digest (EVALSHA), atomically. */
export type LuaScript = (keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

/**
 * Registers `lua` on `client` (ioredis `defineCommand`) with a fixed number of keys, under a name
 * made from the script itself, so registering it again on the same client changes nothing.
 */
export function luaScript(client: Redis, lua: string, numberOfKeys: number): LuaScript {
  const name = `avatar_${createHash('sha1').update(lua).digest('hex').slice(0, 16)}`;
  client.defineCommand(name, { lua, numberOfKeys });
  const command = (client as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[name]!.bind(client);
  return (keys, args) => command(...keys, ...args);
}
