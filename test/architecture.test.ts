import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './support/repo-root.js';

/**
 * The import rules of docs/architecture.md, checked on the sources: the core imports nothing of
 * its hosts (server, widget, Koa, socket.io), imports inside the core run only downward through
 * its layers, and the server's transport-neutral `edge/` imports none of the transports.
 */

/** The core's layers, bottom first; a module may import its own layer or one below. */
const CORE_LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'clock.ts', 'ids.ts', 'text-limits.ts', 'util/', 'ports/', 'protocol/'],
  ['vendor-http/', 'audio/'],
  ['storage/', 'blobs/', 'mail/', 'webhooks/', 'safety/', 'avatars/', 'personas/', 'usage/', 'access/', 'redis/'],
  ['speech/'],
  ['providers/', 'config/'],
  ['conversations/'],
  ['sessions/', 'telemetry/', 'retention/'],
  ['accounts/'],
  ['avatar-service.ts', 'index.ts'],
];

/** The server's layers, bottom first. */
const SERVER_LAYERS: readonly (readonly string[])[] = [
  ['edge/', 'schema/', 'package-paths.ts', 'precompress.ts', 'vendors.ts'],
  ['config.ts', 'startup-notes.ts'],
  ['observability/'],
  ['http/', 'realtime/'],
  ['routes/', 'dev-bootstrap.ts', 'create-service.ts', 'openapi.ts', 'asyncapi.ts'],
  ['app.ts'],
  ['attach-host.ts'],
  ['start-server.ts'],
  ['cli.ts', 'index.ts'],
];

/** Packages only hosts may use. */
const HOST_PACKAGES = /^(koa|@koa\/|koa-body|socket\.io|ws$|lit|three|@pixiv\/|prom-client|pino)/;

interface Import {
  from: string;
  specifier: string;
  /** Repository path of a relative import's target. */
  target: string | undefined;
}

function sources(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(dir, file));
}

function importsOf(file: string): Import[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const found: Import[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"\n]*?(?:from\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const specifier = match[1] ?? match[2]!;
    const target = specifier.startsWith('.') ? relative(repoRoot, join(repoRoot, dirname(file), specifier)).replace(/\.js$/, '.ts') : undefined;
    found.push({ from: file, specifier, target });
  }
  return found;
}

function layerOf(layers: readonly (readonly string[])[], root: string, file: string): number {
  const inside = relative(root, file);
  const index = layers.findIndex((layer) => layer.some((entry) => (entry.endsWith('/') ? inside.startsWith(entry) : inside === entry)));
  assert.notEqual(index, -1, `${file} is in no layer of the architecture test: place it in docs/architecture.md and here`);
  return index;
}

/** Every import of `root` that runs up its layers (same folder excepted). */
function upwardImports(root: string, layers: readonly (readonly string[])[]): string[] {
  const wrong: string[] = [];
  for (const file of sources(root)) {
    for (const { target, specifier } of importsOf(file)) {
      if (!target || !target.startsWith(`${root}/`)) continue;
      if (dirname(target) === dirname(file)) continue;
      const from = layerOf(layers, root, file);
      const to = layerOf(layers, root, target);
      if (to > from) wrong.push(`${file} (layer ${from}) imports ${specifier} (layer ${to})`);
    }
  }
  return wrong;
}

describe('Architecture: imports run one way', () => {
  it('the core imports nothing of its hosts', () => {
    const wrong = sources('core')
      .flatMap(importsOf)
      .filter(({ specifier, target }) => HOST_PACKAGES.test(specifier) || (target !== undefined && !target.startsWith('core/')))
      .map(({ from, specifier }) => `${from} imports ${specifier}`);
    assert.deepEqual(wrong, []);
  });

  it('imports inside the core run only down its layers', () => {
    assert.deepEqual(upwardImports('core', CORE_LAYERS), []);
  });

  it('the server never imports the widget, and its layers run down too', () => {
    const widget = sources('server')
      .flatMap(importsOf)
      .filter(({ target }) => target?.startsWith('widget/'))
      .map(({ from, specifier }) => `${from} imports ${specifier}`);
    assert.deepEqual(widget, []);
    assert.deepEqual(upwardImports('server', SERVER_LAYERS), []);
  });

  it("each engine's driver is loaded only by its own folder, and only on first use", () => {
    // SQLite deployments never load `pg`, PostgreSQL ones never load `better-sqlite3`, and
    // deployments without REDIS_URL never load `ioredis`.
    const drivers: Record<string, string> = { pg: 'core/storage/postgres/', 'better-sqlite3': 'core/storage/sqlite/', ioredis: 'core/redis/' };
    const wrong: string[] = [];
    for (const file of sources('core')) {
      const text = readFileSync(join(repoRoot, file), 'utf8');
      for (const { specifier } of importsOf(file)) {
        const folder = drivers[specifier];
        if (folder === undefined) continue;
        if (!file.startsWith(folder)) wrong.push(`${file} imports ${specifier}, which belongs to ${folder}`);
        const quoted = `['"]${specifier}['"]`;
        if (new RegExp(`^\\s*import\\s+(?!type\\b)[^'"\\n]*from\\s*${quoted}`, 'm').test(text)) wrong.push(`${file} imports ${specifier} statically`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(importsOf('core/storage/postgres/postgres-store.ts').some((i) => i.specifier === 'pg'), 'the dynamic import of pg is seen');
    assert.ok(importsOf('core/redis/open-redis.ts').some((i) => i.specifier === 'ioredis'), 'the dynamic import of ioredis is seen');
    const adapter = sources('server').filter((file) => importsOf(file).some((i) => i.specifier === '@socket.io/redis-adapter'));
    assert.deepEqual(adapter, ['server/realtime/redis-adapter.ts']);
    assert.doesNotMatch(readFileSync(join(repoRoot, adapter[0]!), 'utf8'), /^\s*import\s+(?!type\b)[^'"\n]*from\s*['"]@socket\.io\/redis-adapter['"]/m);
  });

  it('the rules catch what they forbid', () => {
    // A check that cannot fail proves nothing: a fake upward import must be reported.
    const layers = [['a/'], ['b/']];
    assert.equal(layerOf(layers, 'x', 'x/b/file.ts'), 1);
    assert.ok(HOST_PACKAGES.test('koa') && HOST_PACKAGES.test('socket.io') && HOST_PACKAGES.test('@koa/router') && !HOST_PACKAGES.test('kysely'));
    const parsed = importsOf('core/index.ts');
    assert.ok(parsed.length > 20 && parsed.every((i) => i.target?.startsWith('core/')), 'index.ts re-exports are read');
  });
});
