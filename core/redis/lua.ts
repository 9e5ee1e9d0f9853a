import type { Redis } from 'ioredis';

/** A Lua script registered on a client: sent once, then run by digest (EVALSHA), atomically. */
export type LuaScript = (keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

let defined = 0;

/** Registers `lua` on `client` (ioredis `defineCommand`) with a fixed number of keys. */
export function luaScript(client: Redis, lua: string, numberOfKeys: number): LuaScript {
  const name = `avatarScript${++defined}`;
  client.defineCommand(name, { lua, numberOfKeys });
  const command = (client as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[name]!.bind(client);
  return (keys, args) => command(...keys, ...args);
}
