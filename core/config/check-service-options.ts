import { ConfigurationError } from '../errors.js';
import { BROWSER_SPEECH } from '../speech/speech-registry.js';
import { retentionProblem, secretProblem, unknownIdProblem } from './config-rules.js';

/** The part of `AvatarServiceOptions` whose values are checked before anything is built. */
export interface CheckedOptions {
  jwtSecret: unknown;
  aiProviders: readonly { id: string }[];
  speechProviders: readonly { id: string }[];
  defaultAiProvider?: string | undefined;
  defaultTtsProvider?: string | undefined;
  aiFallback?: readonly string[] | undefined;
  ttsFallback?: readonly string[] | undefined;
  retention?: { audioMs?: number | undefined; conversationsMs?: number | undefined } | undefined;
}

/**
 * Checks the options of `createAvatarService` by the rules the server applies to its environment
 * (`config-rules.ts`), so an embedding app fails at start with one message naming the option
 * instead of at the first token or reply. Throws {@link ConfigurationError}.
 */
export function checkServiceOptions(options: CheckedOptions): void {
  const fail = (option: string, problem: string | undefined) => {
    if (problem !== undefined) throw new ConfigurationError(option, problem);
  };
  fail('jwtSecret', secretProblem(options.jwtSecret));
  for (const name of ['aiProviders', 'speechProviders'] as const) {
    const list: unknown = options[name];
    if (!Array.isArray(list)) fail(name, `must be an array of providers, got ${list === null ? 'null' : typeof list}`);
    const ids = options[name].map((provider) => provider.id);
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice !== undefined) fail(name, `'${twice}' is registered twice`);
  }
  const aiIds = options.aiProviders.map((provider) => provider.id);
  const speechIds = options.speechProviders.map((provider) => provider.id);
  if (options.defaultAiProvider !== undefined) fail('defaultAiProvider', unknownIdProblem(options.defaultAiProvider, aiIds));
  if (options.defaultTtsProvider !== undefined) fail('defaultTtsProvider', unknownIdProblem(options.defaultTtsProvider, [...speechIds, BROWSER_SPEECH]));
  for (const id of options.aiFallback ?? []) fail('aiFallback', unknownIdProblem(id, aiIds));
  for (const id of options.ttsFallback ?? []) fail('ttsFallback', unknownIdProblem(id, speechIds));
  const { audioMs, conversationsMs } = options.retention ?? {};
  if (audioMs !== undefined) fail('retention.audioMs', retentionProblem(audioMs));
  if (conversationsMs !== undefined) fail('retention.conversationsMs', retentionProblem(conversationsMs));
}
