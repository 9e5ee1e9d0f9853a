import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AIProvider, AvatarService, ChatModel, SpeechProvider, WebhookOptions } from '../../core/index.js';
import { FsBlobStore, createAvatarService, createSqliteStore } from '../../core/index.js';
import { attachHost, loadConfig } from '../../server/index.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BenchServer {
  url: string;
  key: string;
  service: AvatarService;
  /** The temp directory holding the database and `audio/` (removed by `close`). */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A real server (HTTP + realtime) on a temp SQLite file with one enterprise account whose limits
 * are far above the load, so benchmarks measure the service and not its rate limiter's refusals.
 */
export async function startBenchServer(options: { aiProviders: AIProvider[]; speechProviders: SpeechProvider[]; defaultTtsProvider?: string; webhooks?: WebhookOptions }): Promise<BenchServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'avatar-bench-'));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: url, DEV_BOOTSTRAP: 'false' });
  const service = createAvatarService({
    store: await createSqliteStore({ filename: join(dataDir, 'avatar.db') }),
    blobs: new FsBlobStore(join(dataDir, 'audio')),
    jwtSecret: config.jwtSecret,
    aiProviders: options.aiProviders,
    speechProviders: options.speechProviders,
    ...(options.defaultTtsProvider && { defaultTtsProvider: options.defaultTtsProvider }),
    ...(options.webhooks && { webhooks: options.webhooks }),
  });
  await service.start();
  const host = attachHost(server, { service, config });
  const account = await service.accounts.createAccount({ email: 'bench@example.com', password: 'benchmark' });
  await service.accounts.setPlan(account.id, { tier: 'enterprise', requestsPerMinute: 100_000_000, connections: 100_000 });
  const { key } = await service.accounts.createApiKey(account.id, { name: 'bench', mode: 'test' });
  return {
    url,
    key,
    service,
    dataDir,
    async close() {
      await service.conversations.close();
      await host.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An AI provider that answers at once with a fixed text, split into the given deltas. */
export function instantProvider(deltas: (request: unknown) => string[]): AIProvider {
  const model: ChatModel = {
    provider: 'local',
    modelId: 'instant',
    async *stream(request) {
      const parts = deltas(request);
      for (const delta of parts) yield { type: 'text-delta', delta };
      yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: parts.length } };
    },
  };
  return {
    id: 'local',
    name: 'instant',
    description: 'Answers at once (benchmarks)',
    kind: 'offline',
    configured: true,
    defaultModel: 'instant',
    models: [{ id: 'instant', name: 'instant', contextWindow: 1, capabilities: ['chat', 'streaming'] }],
    chatModel: () => model,
  };
}

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
