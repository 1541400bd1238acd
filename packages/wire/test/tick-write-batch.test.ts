import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { corkForThisTick } from '../src/tick-write-batch.js';

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

describe('corkForThisTick', () => {
  it("sends a tick's writes together, and the next tick's on their own", async () => {
    const { stream, writes } = recorder();
    corkForThisTick(stream);
    stream.write('create');
    corkForThisTick(stream);
    stream.write('getChildren');
    assert.deepEqual(writes, []);
    await nextMacrotask();
    corkForThisTick(stream);
    stream.write('delete');
    await nextMacrotask();
    assert.deepEqual(writes, [['create', 'getChildren'], ['delete']]);
  });

  it('leaves a destroyed stream alone', () => {
    const { stream } = recorder();
    stream.destroy();
    corkForThisTick(stream);
    assert.equal(stream.writableCorked, 0);
  });
});
