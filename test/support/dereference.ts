/**
 * A copy of an OpenAPI / AsyncAPI document with every local `$ref` (`#/…`) replaced by what it
 * points at, for tests that read schemas where the document names them as components.
 */
export function dereference<T>(doc: T): T {
  const root = doc as unknown;
  const resolve = (pointer: string): unknown =>
    pointer
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], root);
  const walk = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, seen));
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      if (seen.includes(ref)) throw new Error(`circular $ref ${ref}`);
      return walk(resolve(ref), [...seen, ref]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, seen)]));
  };
  return walk(doc, []) as T;
}
