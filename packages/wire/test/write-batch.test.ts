import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { corkUntilNextMicrotask } from '../src/write-batch.js';

/** A stream that records each write it is handed: one entry per write or writev. */
function recorder(): { stream: Writable; writes: string[][] } {
  const writes: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, writes };
}

/** Lets every microtask queued so far run. */
const microtasks = (): Promise<void> => new Promise((resolve) => queueMicrotask(resolve));

describe('corkUntilNextMicrotask', () => {
  it('sends the writes made together in one write, before the promise continuations queued after them', async () => {
    const { stream, writes } = recorder();
    const seenByContinuation: number[] = [];
    const continuation = Promise.resolve().then(() => {
      // Queued before the writes: runs before the uncork, the writes still held.
      seenByContinuation.push(writes.length);
    });
    corkUntilNextMicrotask(stream);
    stream.write('create');
    corkUntilNextMicrotask(stream);
    stream.write('getChildren');
    assert.deepEqual(writes, []);
    const later = Promise.resolve().then(() => seenByContinuation.push(writes.length));
    await continuation;
    await later;
    assert.deepEqual(seenByContinuation, [0, 1], 'out before what was queued after the writes');
    await microtasks();
    corkUntilNextMicrotask(stream);
    stream.write('delete');
    await microtasks();
    assert.deepEqual(writes, [['create', 'getChildren'], ['delete']]);
  });

  it('leaves a destroyed stream alone', () => {
    const { stream } = recorder();
    stream.destroy();
    corkUntilNextMicrotask(stream);
    assert.equal(stream.writableCorked, 0);
  });
});
