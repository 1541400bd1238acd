import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
