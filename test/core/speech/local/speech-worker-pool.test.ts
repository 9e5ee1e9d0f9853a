import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readMp3Info } from '../../../../core/audio/mp3-info.js';
import { ServiceError } from '../../../../core/errors.js';
import { SpeechWorkerPool, createLocalSpeechProvider } from '../../../../core/speech/local/index.js';
import type { ClipRequest } from '../../../../core/speech/local/index.js';

const installed = await createLocalSpeechProvider().available();
const engineModuleUrl = import.meta.resolve('espeak-ng');
const clip = (text: string, engineVoice = 'en-us+f3'): ClipRequest => ({ text, engineVoice, visemes: false });

function open(size: number): SpeechWorkerPool {
  return new SpeechWorkerPool({ size, workerData: { engineModuleUrl } });
}

describe('speech worker pool (real espeak-ng workers)', { skip: installed ? false : 'espeak-ng is not installed' }, () => {
  it('is sized by its setting, and warm() starts every worker with an instance ready', async (t) => {
    const pool = open(3);
    t.after(() => pool.close());
    assert.equal(pool.size, 3);
    assert.equal(pool.workerCount, 0, 'nothing starts before it is asked');
    await pool.warm();
    assert.equal(pool.workerCount, 3);
    assert.equal(pool.warmCount, 3, 'each worker reported a ready espeak-ng instance');
    await pool.warm(); // idempotent
    assert.equal(pool.workerCount, 3);
  });

  it('synthesizes requests of different conversations in parallel, up to its size', async (t) => {
    const pool = open(2);
    t.after(() => pool.close());
    await pool.warm();
    const texts = ['First conversation speaks.', 'Second conversation speaks.', 'Third conversation speaks.'];
    const pending = texts.map((text) => pool.run(clip(text)));
    assert.equal(pool.busyCount, 2, 'two workers took a request each at once');
    const results = await Promise.all(pending);
    for (const result of results) assert.equal(readMp3Info(result.audio).durationMs, result.durationMs);
    assert.equal(pool.busyCount, 0);
    assert.equal(pool.workerCount, 2, 'never more workers than its size');
  });

  it('starts waiting requests by the time their audio is needed, first come among equals', async (t) => {
    const pool = open(1);
    t.after(() => pool.close());
    await pool.warm();
    const finished: string[] = [];
    const now = performance.now();
    const run = (name: string, neededAt: number) => pool.run(clip(`Sentence ${name}.`), undefined, neededAt).then(() => finished.push(name));
    // `a` takes the only worker; the rest wait: a reply's later sentences (needed in seconds)
    // come after first sentences of other replies (needed now), each group in arrival order.
    await Promise.all([run('a', now), run('later-1', now + 3000), run('later-2', now + 3000), run('first-1', now), run('first-2', now)]);
    assert.deepEqual(finished, ['a', 'first-1', 'first-2', 'later-1', 'later-2']);
  });

  it('survives a failing request: it is rejected, the others are answered by the same workers', async (t) => {
    const pool = open(1);
    t.after(() => pool.close());
    // A voice path outside espeak-ng's data makes the engine fail inside the worker.
    const bad = pool.run(clip('This voice does not exist.', '../../etc'));
    const good = pool.run(clip('This one is fine.'));
    await assert.rejects(bad, (error: unknown) => error instanceof ServiceError && error.code === 'internal_error' && /espeak-ng failed \(exit 1\)/.test(error.message));
    assert.ok((await good).durationMs > 0);
    assert.equal(pool.workerCount, 1);
    assert.ok((await pool.run(clip('And so is this one.'))).durationMs > 0);
  });

  it('close() terminates every worker and rejects what was running or waiting', async () => {
    const pool = open(1);
    await pool.warm();
    const running = pool.run(clip('Running when the pool closes.'));
    const waiting = pool.run(clip('Waiting when the pool closes.'));
    const closing = pool.close();
    for (const request of [running, waiting]) {
      await assert.rejects(request, (error: unknown) => error instanceof ServiceError && error.code === 'unavailable');
    }
    await closing;
    assert.equal(pool.workerCount, 0);
    await assert.rejects(pool.run(clip('After close.')), (error: unknown) => error instanceof ServiceError && error.code === 'unavailable');
  });

  it('the local provider sizes its pool to the machine unless told, and warms it when asked whether it is available', async (t) => {
    const speech = createLocalSpeechProvider({ poolSize: 2, warm: true });
    t.after(() => speech.close());
    assert.equal(await speech.available(), true);
    const result = await speech.synthesize({ text: 'Warm already.', voiceId: 'en-US-Neural2-F' });
    assert.ok(result.durationMs > 0);
  });
});
