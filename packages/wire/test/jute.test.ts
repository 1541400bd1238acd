import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameDecoder } from '../src/frame-decoder.js';
import { JuteReader } from '../src/jute-reader.js';
import { JuteWriter } from '../src/jute-writer.js';

describe('JuteWriter and JuteReader', () => {
  it('round-trip ints, longs, bools, buffers, strings and nulls big-endian', () => {
    const bytes = new JuteWriter()
      .int(-2)
      .long(-1n)
      .long(0x100005b8e0a0000n)
      .bool(true)
      .buffer(Buffer.from([1, 2, 3]))
      .buffer(undefined)
      .string('/zk/ä')
      .toBuffer();
    assert.deepEqual([...bytes.subarray(0, 4)], [0xff, 0xff, 0xff, 0xfe]);
    const reader = new JuteReader(bytes);
    assert.equal(reader.int(), -2);
    assert.equal(reader.long(), -1n);
    assert.equal(reader.long(), 0x100005b8e0a0000n);
    assert.equal(reader.bool(), true);
    assert.deepEqual(reader.buffer(), Buffer.from([1, 2, 3]));
    assert.equal(reader.buffer(), undefined);
    assert.equal(reader.string(), '/zk/ä');
    assert.equal(reader.remaining, 0);
  });

  it('reads a vector of strings', () => {
    const bytes = new JuteWriter().int(2).string('a').string('bc').toBuffer();
    assert.deepEqual(new JuteReader(bytes).strings(), ['a', 'bc']);
  });

  it('frame() prefixes the payload length', () => {
    const frame = new JuteWriter().int(7).frame();
    assert.equal(frame.readInt32BE(0), 4);
    assert.equal(frame.readInt32BE(4), 7);
  });

  it('refuses an int that is not an int32 instead of writing other bytes', () => {
    for (const value of [2 ** 31, -(2 ** 31) - 1, 1.5, Number.NaN]) {
      assert.throws(() => new JuteWriter().int(value), RangeError, String(value));
    }
    assert.deepEqual(
      new JuteWriter()
        .int(-(2 ** 31))
        .int(2 ** 31 - 1)
        .toBuffer().length,
      8,
    );
  });

  it('throws on a short buffer instead of reading garbage', () => {
    assert.throws(() => new JuteReader(Buffer.from([0, 0])).int(), /need 4 bytes/);
  });
});

describe('FrameDecoder', () => {
  it('reassembles frames split and merged across chunks', () => {
    const a = new JuteWriter().int(1).int(2).frame();
    const b = new JuteWriter().string('hello').frame();
    const stream = Buffer.concat([a, b]);
    const decoder = new FrameDecoder();
    const frames = [
      ...decoder.push(stream.subarray(0, 3)),
      ...decoder.push(stream.subarray(3, 10)),
      ...decoder.push(stream.subarray(10)),
    ];
    assert.equal(frames.length, 2);
    assert.deepEqual(frames[0], a.subarray(4));
    assert.equal(new JuteReader(frames[1] ?? Buffer.alloc(0)).string(), 'hello');
  });

  it('rejects a negative length as a corrupt stream', () => {
    assert.throws(
      () => new FrameDecoder().push(Buffer.from([0xff, 0xff, 0xff, 0xff])),
      /invalid frame length/,
    );
  });
});

describe('JuteWriter growth', () => {
  it('grows past its size hint and leaves earlier views untouched', () => {
    const writer = new JuteWriter(2).int(1);
    const early = writer.toBuffer();
    const big = Buffer.alloc(1000, 7);
    writer.buffer(big).string('end');
    assert.deepEqual([...early], [0, 0, 0, 1]);
    const reader = new JuteReader(writer.toBuffer());
    assert.equal(reader.int(), 1);
    assert.deepEqual(reader.buffer(), big);
    assert.equal(reader.string(), 'end');
    assert.equal(writer.frame().readInt32BE(0), writer.length);
  });
});
