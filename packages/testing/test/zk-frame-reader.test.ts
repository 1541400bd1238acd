import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeRequest, OpCode } from '@zkrecipes/wire';
import { ZkFrameReader, type ZkFrame } from '../src/zk-frame-reader.js';

const connect = Buffer.concat([Buffer.from([0, 0, 0, 3]), Buffer.from('abc')]);
const first = encodeRequest(1, OpCode.exists, Buffer.from('first'));
const second = encodeRequest(2, OpCode.getData, Buffer.from('second one'));
const stream = Buffer.concat([connect, first, second]);

function pushAll(reader: ZkFrameReader, chunks: Buffer[]): ZkFrame[] {
  return chunks.flatMap((chunk) => reader.push(chunk));
}

describe('ZkFrameReader', () => {
  it('returns whole frames, bytes as they came, from chunks that split and coalesce them', () => {
    const splits = [
      [stream],
      [...stream].map((byte) => Buffer.from([byte])),
      [stream.subarray(0, 2), stream.subarray(2, 12), stream.subarray(12)],
      [stream.subarray(0, 7 + 4), stream.subarray(11, stream.length - 1), stream.subarray(-1)],
    ];
    for (const chunks of splits) {
      const frames = pushAll(new ZkFrameReader(), chunks);
      assert.deepEqual(
        frames.map((frame) => frame.index),
        [0, 1, 2],
      );
      assert.deepEqual(Buffer.concat(frames.map((frame) => frame.bytes)), stream);
      assert.deepEqual(frames[1]?.body, first.subarray(4));
      assert.deepEqual(frames[2]?.body, second.subarray(4));
    }
  });

  it('holds a frame until its last byte; rest() takes what is held', () => {
    const reader = new ZkFrameReader();
    assert.deepEqual(reader.push(first.subarray(0, 3)), []);
    assert.deepEqual(reader.push(first.subarray(3, 9)), []);
    assert.deepEqual(reader.rest(), first.subarray(0, 9));
    assert.deepEqual(reader.rest(), Buffer.alloc(0));
  });

  it('passes a stream that is not ZooKeeper framing through unchanged (a four-letter word)', () => {
    const reader = new ZkFrameReader();
    const frames = pushAll(reader, [Buffer.from('ru'), Buffer.from('ok'), Buffer.from('more')]);
    assert.equal(reader.unframed, true);
    assert.deepEqual(Buffer.concat(frames.map((frame) => frame.bytes)).toString(), 'ruokmore');
    assert.ok(frames.every((frame) => frame.body === undefined));
  });
});
