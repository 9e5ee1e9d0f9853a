import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../../core/errors.js';
import { createLocalProvider } from '../../../core/providers/local/index.js';
import { createOllamaProvider } from '../../../core/providers/ollama/index.js';
import { createOpenAIProvider } from '../../../core/providers/openai/index.js';
import { ProviderRegistry } from '../../../core/providers/provider-registry.js';
import { FallbackChatModel } from '../../../core/providers/fallback-chat-model.js';

/** A registered provider whose credentials are missing. */
const spare = { ...createLocalProvider(), id: 'spare', configured: false };

describe('ProviderRegistry', () => {
  const registry = new ProviderRegistry(
    [createLocalProvider(), createOpenAIProvider({ apiKey: 'sk-test' }), createOllamaProvider({ baseUrl: 'http://127.0.0.1:11434' }), spare],
    undefined,
    ['local'],
  );

  it('refuses two providers with one id (a custom server cannot replace a built-in one)', () => {
    const impostor = { ...createLocalProvider(), id: 'openai' };
    assert.throws(() => new ProviderRegistry([createOpenAIProvider({ apiKey: 'sk-test' }), impostor]), /two AI providers share the id 'openai'/);
  });

  it('defaults to the first configured vendor', () => {
    assert.equal(registry.defaultId, 'openai');
  });

  it('checks vendor models against their list, but lets Ollama run any pulled model', () => {
    assert.throws(() => registry.chatModel('openai', 'gpt-99'), (e: unknown) => e instanceof ValidationError && /ai_model must be one of/.test(e.message));
    assert.equal(registry.chatModel('ollama', 'my-finetune:7b').modelId, 'my-finetune:7b');
  });

  it('names the field and the allowed values for unknown or unconfigured providers', () => {
    assert.throws(() => registry.get('skynet', 'provider'), /provider must be one of: local, openai, ollama, spare/);
    assert.throws(() => registry.requireConfigured('spare'), /not configured on this server.*configured: local, openai, ollama/);
  });

  it('puts the fallback providers behind the chosen one, without repeating it', () => {
    const chained = registry.chatModelWithFallback('openai');
    assert.ok(chained instanceof FallbackChatModel);
    assert.deepEqual(chained.models.map((m) => m.provider), ['openai', 'local']);
    assert.equal(registry.chatModelWithFallback('local').provider, 'local');
    assert.ok(!(registry.chatModelWithFallback('local') instanceof FallbackChatModel));
  });
});
