import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeMultiRead, encodeMultiRead } from '@zkrecipes/wire';
import { NzcReplyTap, type TappableConnectionManager } from '../../src/zk/nzc-reply-tap.js';

/** A frame: length, then xid, zxid, err, then the body. */
function frame(xid: number, err: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(20);
  header.writeInt32BE(16 + body.length, 0);
  header.writeInt32BE(xid, 4);
  header.writeBigInt64BE(99n, 8);
  header.writeInt32BE(err, 16);
  return Buffer.concat([header, body]);
}

function fakeManager(): TappableConnectionManager & { seen: Buffer[] } {
  const seen: Buffer[] = [];
  return {
    state: 2,
    socket: {},
    seen,
    onSocketData(buffer: Buffer) {
      seen.push(Buffer.from(buffer));
    },
  };
}

describe('NzcReplyTap', () => {
  const body = Buffer.from('multiRead reply body');
  const stream = Buffer.concat([
    frame(-1, 0, Buffer.from('event')),
    frame(7, 0, body),
    frame(8, 0),
  ]);

  it('hands nzc whole frames and takes the body of an expected reply, at every split of the stream', () => {
    for (let split = 0; split <= stream.length; split++) {
      const manager = fakeManager();
      const tap = new NzcReplyTap(manager);
      let taken: Buffer | undefined;
      tap.expect({ header: { xid: 7 }, takeBody: (bytes) => (taken = Buffer.from(bytes)) });
      manager.onSocketData(stream.subarray(0, split));
      manager.onSocketData(stream.subarray(split));
      assert.deepEqual(taken, body, `split at ${split}`);
      assert.deepEqual(manager.seen, [
        frame(-1, 0, Buffer.from('event')),
        frame(7, 0), // the bare header: nzc answers it as a success without payload
        frame(8, 0),
      ]);
    }
  });

  it('joins a frame that comes a byte at a time', () => {
    const manager = fakeManager();
    const tap = new NzcReplyTap(manager);
    let taken: Buffer | undefined;
    tap.expect({ header: { xid: 7 }, takeBody: (bytes) => (taken = Buffer.from(bytes)) });
    for (let i = 0; i < stream.length; i++) manager.onSocketData(stream.subarray(i, i + 1));
    assert.deepEqual(taken, body);
    assert.equal(manager.seen.length, 3);
  });

  it('leaves a failed reply to nzc (its callback gets the error), and frames of an old socket are dropped', () => {
    const manager = fakeManager();
    const tap = new NzcReplyTap(manager);
    let taken = false;
    tap.expect({ header: { xid: 3 }, takeBody: () => (taken = true) });
    const failed = frame(3, -101);
    manager.onSocketData(failed.subarray(0, 10));
    (manager as { socket: object }).socket = {}; // reconnect: the half frame is void
    manager.onSocketData(failed);
    assert.equal(taken, false);
    assert.deepEqual(manager.seen, [failed]);
  });
});

describe('multiRead codec', () => {
  it('encodes getData ops without watches and decodes data, stats and per-op errors', () => {
    const request = encodeMultiRead(['/a', '/bb']);
    // op header (9) + path (4 + n) + watch flag (1) per op, then the done header (9)
    assert.equal(request.length, 9 + 4 + 2 + 1 + (9 + 4 + 3 + 1) + 9);
    assert.equal(request.readInt32BE(0), 4); // getData
    assert.equal(request.readUInt8(9 + 4 + 2), 0); // watch = false

    const stat = Buffer.alloc(68, 1);
    const header = (type: number, done: boolean, err: number): Buffer => {
      const b = Buffer.alloc(9);
      b.writeInt32BE(type, 0);
      b.writeUInt8(done ? 1 : 0, 4);
      b.writeInt32BE(err, 5);
      return b;
    };
    const length = Buffer.alloc(4);
    length.writeInt32BE(3);
    const error = Buffer.alloc(4);
    error.writeInt32BE(-101);
    const reply = Buffer.concat([
      header(4, false, 0),
      length,
      Buffer.from('abc'),
      stat,
      header(-1, false, -101),
      error,
      header(-1, true, -1),
    ]);
    const results = decodeMultiRead(reply, 2);
    assert.deepEqual(results, [
      { ok: true, data: Buffer.from('abc'), stat },
      { ok: false, code: -101 },
    ]);
    assert.throws(() => decodeMultiRead(reply.subarray(0, 20), 2), /cut short/);
    assert.throws(() => decodeMultiRead(reply, 3), /2 results for 3 reads/);
  });
});
