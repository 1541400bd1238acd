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

type FakeManager = TappableConnectionManager & {
  seen: Buffer[];
  pendingQueue: { request: { header: { xid: number } } }[];
};

/** nzc's side: records the frames it gets and answers its pending requests in order. */
function fakeManager(pendingXids: readonly number[]): FakeManager {
  const seen: Buffer[] = [];
  const manager: FakeManager = {
    state: 2,
    socket: {},
    seen,
    pendingQueue: pendingXids.map((xid) => ({ request: { header: { xid } } })),
    onSocketData(buffer: Buffer) {
      seen.push(Buffer.from(buffer));
      if (buffer.readInt32BE(4) >= 0) manager.pendingQueue.shift();
    },
  };
  return manager;
}

/** Tells `tap` to expect the reply to the pending request with `xid`; returns what it takes. */
function expectBody(tap: NzcReplyTap, manager: FakeManager, xid: number): { body?: Buffer } {
  const taken: { body?: Buffer } = {};
  const header = manager.pendingQueue.find((p) => p.request.header.xid === xid)!.request.header;
  tap.expect({ header, takeBody: (bytes) => (taken.body = Buffer.from(bytes)) });
  return taken;
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
      const manager = fakeManager([7, 8]);
      const tap = new NzcReplyTap(manager);
      const taken = expectBody(tap, manager, 7);
      manager.onSocketData(stream.subarray(0, split));
      manager.onSocketData(stream.subarray(split));
      assert.deepEqual(taken.body, body, `split at ${split}`);
      assert.deepEqual(manager.seen, [
        frame(-1, 0, Buffer.from('event')),
        frame(7, 0), // the bare header: nzc answers it as a success without payload
        frame(8, 0),
      ]);
    }
  });

  it('joins a frame that comes a byte at a time', () => {
    const manager = fakeManager([7, 8]);
    const tap = new NzcReplyTap(manager);
    const taken = expectBody(tap, manager, 7);
    for (let i = 0; i < stream.length; i++) manager.onSocketData(stream.subarray(i, i + 1));
    assert.deepEqual(taken.body, body);
    assert.equal(manager.seen.length, 3);
  });

  it('leaves a failed reply to nzc (its callback gets the error), and frames of an old socket are dropped', () => {
    const manager = fakeManager([3]);
    const tap = new NzcReplyTap(manager);
    const taken = expectBody(tap, manager, 3);
    const failed = frame(3, -101);
    manager.onSocketData(failed.subarray(0, 10));
    (manager as { socket: object }).socket = {}; // reconnect: the half frame is void
    manager.onSocketData(failed);
    assert.equal(taken.body, undefined);
    assert.deepEqual(manager.seen, [failed]);
  });

  it('takes only the body of the reply that answers an expected request, however many are out', () => {
    const manager = fakeManager([1, 2, 3, 4]);
    const tap = new NzcReplyTap(manager);
    const first = expectBody(tap, manager, 1);
    const third = expectBody(tap, manager, 3);
    const fourth = expectBody(tap, manager, 4);
    tap.forget({ header: manager.pendingQueue[3]!.request.header, takeBody: () => {} });
    manager.onSocketData(
      Buffer.concat([
        frame(1, 0, Buffer.from('one')),
        frame(2, 0, Buffer.from('two')),
        frame(3, 0, Buffer.from('three')),
        frame(4, 0, Buffer.from('four')),
      ]),
    );
    assert.deepEqual(
      [first.body, third.body, fourth.body],
      [Buffer.from('one'), Buffer.from('three'), undefined],
    );
    assert.deepEqual(manager.seen, [
      frame(1, 0),
      frame(2, 0, Buffer.from('two')), // not expected: nzc decodes it
      frame(3, 0),
      frame(4, 0, Buffer.from('four')), // forgotten
    ]);
  });
});
