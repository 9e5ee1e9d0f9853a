import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { concatMp3 } from '../../../../core/audio/concat-mp3.js';
import { readMp3Info } from '../../../../core/audio/mp3-info.js';
import { isAbortError, ServiceError, ValidationError } from '../../../../core/errors.js';
import { createLocalSpeechProvider } from '../../../../core/speech/local/index.js';
import { VisemeName } from '../../../../core/speech/speech-provider.js';
import { repoRoot } from '../../../support/repo-root.js';

const installed = await createLocalSpeechProvider().available();
const sentence = 'The quick brown fox jumps over the lazy dog near the river.'; // 12 words

describe('local speech provider (espeak-ng)', { skip: installed ? false : 'espeak-ng is not installed' }, () => {
  const speech = createLocalSpeechProvider();
  after(() => speech.close());

  it('synthesizes MP3 of the constant format with a plausible duration', async () => {
    const result = await speech.synthesize({ text: sentence, voiceId: 'en-US-Neural2-F' });
    assert.equal(result.contentType, 'audio/mpeg');
    assert.equal(result.engineVoice, 'en-us+f3');
    assert.equal(result.characters, sentence.length);
    const info = readMp3Info(result.audio);
    assert.deepEqual(
      { sampleRate: info.sampleRate, channels: info.channels, bitrateKbps: info.bitrateKbps, cbr: info.constantBitrate, start: info.audioStart },
      { sampleRate: 22050, channels: 1, bitrateKbps: 48, cbr: true, start: 0 },
    );
    assert.equal(result.durationMs, info.durationMs);
    assert.ok(result.durationMs > 1500 && result.durationMs < 8000, String(result.durationMs));
    assert.equal(process.exitCode, undefined, 'espeak-ng glue must not touch the host process exit code');
  });

  it('gives different letters different voices', async () => {
    const [f, c, d] = await Promise.all(
      ['en-US-Neural2-F', 'en-US-Neural2-C', 'en-US-Neural2-D'].map((voiceId) => speech.synthesize({ text: 'Good morning.', voiceId })),
    );
    assert.notDeepEqual(f!.audio, c!.audio);
    assert.notDeepEqual(f!.audio, d!.audio);
    assert.notEqual(f!.engineVoice, c!.engineVoice);
  });

  it('makes clips that concatenate into one MP3 of the summed duration', async () => {
    const a = await speech.synthesize({ text: 'Hello there.', voiceId: 'en-GB-Neural2-B' });
    const b = await speech.synthesize({ text: 'How can I help you today?', voiceId: 'en-GB-Neural2-B' });
    const joined = concatMp3([a.audio, b.audio]);
    assert.equal(joined.length, a.audio.length + b.audio.length);
    const info = readMp3Info(joined);
    const sum = a.durationMs + b.durationMs;
    assert.ok(Math.abs(info.durationMs - sum) <= sum * 0.05, `${info.durationMs} vs ${sum}`);
  });

  it('returns an ordered viseme timeline within the audio', async () => {
    const result = await speech.synthesize({ text: 'Hello, my friend. How are you?', voiceId: 'en-US-Neural2-D' });
    const cues = result.visemes ?? [];
    assert.ok(cues.length > 5);
    let end = 0;
    for (const cue of cues) {
      assert.ok(VisemeName.includes(cue.viseme), cue.viseme);
      assert.ok(cue.startMs >= end && cue.endMs > cue.startMs && cue.endMs <= result.durationMs, JSON.stringify(cue));
      assert.ok(cue.weight >= 0 && cue.weight <= 1);
      end = cue.endMs;
    }
    assert.ok(cues.some((c) => c.viseme === 'sil') && cues.some((c) => c.viseme !== 'sil'));
  });

  it('speaks text that starts with a dash instead of reading it as an option', async () => {
    const result = await speech.synthesize({ text: '--version', voiceId: 'en-US-Neural2-A' });
    assert.ok(result.durationMs > 0);
  });

  it('rejects bad voices and empty text with ValidationError', async () => {
    await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-Z' }), (e: unknown) => e instanceof ValidationError && e.field === 'voice_id');
    await assert.rejects(speech.synthesize({ text: '   ', voiceId: 'en-US-Neural2-F' }), (e: unknown) => e instanceof ValidationError && e.field === 'text');
  });

  it('rejects with an AbortError when aborted before or during synthesis', async () => {
    await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F', signal: AbortSignal.abort() }), isAbortError);
    const controller = new AbortController();
    const pending = speech.synthesize({ text: sentence, voiceId: 'en-US-Neural2-F', signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, isAbortError);
    // Queued behind another request (pool of one worker): removed from the queue.
    const queued = new AbortController();
    const first = speech.synthesize({ text: sentence, voiceId: 'en-US-Neural2-C' });
    const second = speech.synthesize({ text: sentence, voiceId: 'en-US-Neural2-C', signal: queued.signal });
    setImmediate(() => queued.abort());
    await assert.rejects(second, isAbortError);
    assert.ok((await first).durationMs > 0);
    // The pool stays usable after an abort.
    assert.ok((await speech.synthesize({ text: 'Still here.', voiceId: 'en-US-Neural2-F' })).durationMs > 0);
  });

  it('lets the process exit after close()', async () => {
    const module = pathToFileURL(join(repoRoot, 'dist/core/speech/local/index.js')).href;
    const script = `
      const { createLocalSpeechProvider } = await import(${JSON.stringify(module)});
      const speech = createLocalSpeechProvider();
      const r = await speech.synthesize({ text: 'Bye.', voiceId: 'en-US-Neural2-F' });
      await speech.close();
      console.log('done', r.audio.length > 0);`;
    // No timer keeps the child alive: if a worker dangled, the child would never exit and the
    // 60 s kill would fail this test.
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
    assert.equal(stdout.trim(), 'done true');
  });
});

describe('local speech provider without espeak-ng', () => {
  it('reports unavailable and explains the optional GPL dependency', async () => {
    const speech = createLocalSpeechProvider({ engineModule: 'espeak-ng-not-installed-here' });
    assert.equal(await speech.available(), false);
    await assert.rejects(speech.synthesize({ text: 'Hi', voiceId: 'en-US-Neural2-F' }), (error: unknown) => {
      assert.ok(error instanceof ServiceError);
      assert.equal(error.code, 'unavailable');
      assert.match(error.message, /optional package espeak-ng \(GPL/);
      return true;
    });
    assert.ok(speech.voices().length > 0);
    await speech.close();
  });
});
