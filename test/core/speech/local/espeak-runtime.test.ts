import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EspeakRuntime, createLocalSpeechProvider } from '../../../../core/speech/local/index.js';

const installed = await createLocalSpeechProvider().available();
const wavPath = '/speech.wav';
// Voices whose output is the same on every new instance (female variants add random breath,
// so their samples differ run to run; their length and phonemes do not).
const runs: [string, string][] = [
  ['en-us', 'Hello there, how are you today?'],
  ['en-gb+m3', 'We are open every day from nine in the morning until six in the evening.'],
  ['en-us', 'Is there anything else?'],
  ['en-us+f3', 'Hello there, how are you today?'],
  ['en-us', 'Hello there, how are you today?'],
];

describe('espeak-ng runtime', { skip: installed ? false : 'espeak-ng is not installed' }, () => {
  it('an instance made fresh again after a run speaks exactly as a new instance does', async () => {
    const url = import.meta.resolve('espeak-ng');
    const kept = await EspeakRuntime.load(url);
    for (let round = 0; round < 2; round++) {
      for (const [voice, text] of runs) {
        const args = ['-w', wavPath, '--ipa=3', '-v', voice, '--', text];
        const again = await kept.run(args, wavPath); // after the first run: the same instance, reset
        const fresh = await (await EspeakRuntime.load(url)).run(args, wavPath);
        assert.equal(again.exitStatus, 0);
        assert.ok(again.wav && again.wav.length > 1000);
        if (voice.includes('+f')) assert.equal(again.wav.length, fresh.wav!.length, `${voice}: ${text}`);
        else assert.deepEqual(again.wav, fresh.wav, `${voice}: ${text}`);
        assert.deepEqual(again.stdout, fresh.stdout);
      }
    }
  });

  it('prepare() resolves once an instance is ready, at once when the last run left one', async () => {
    const runtime = await EspeakRuntime.load(import.meta.resolve('espeak-ng'));
    await runtime.prepare();
    const output = await runtime.run(['-w', wavPath, '--', 'Ready.'], wavPath);
    assert.equal(output.exitStatus, 0);
    await runtime.prepare();
    assert.equal((await runtime.run(['-w', wavPath, '--', 'Ready again.'], wavPath)).exitStatus, 0);
  });
});
