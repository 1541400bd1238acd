import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WatcherEvent } from '@zkrecipes/wire';
import {
  NzcReplyTap,
  type PendingPacket,
  type TappableConnectionManager,
} from '../../src/zk/nzc-reply-tap.js';

/** A frame: length, then xid, zxid, err, then the body. */
function frame(xid: number, err: number, body: Buffer = Buffer.alloc(0), zxid = 99n): Buffer {
  const header = Buffer.alloc(20);
  header.writeInt32BE(16 + body.length, 0);
  header.writeInt32BE(xid, 4);
  header.writeBigInt64BE(zxid, 8);
  header.writeInt32BE(err, 16);
  return Buffer.concat([header, body]);
}

/** A WatcherEvent body: int type, int state, ustring path. */
function watcherEvent(type: number, path: string): Buffer {
  const body = Buffer.alloc(12 + Buffer.byteLength(path));
  body.writeInt32BE(type, 0);
  body.writeInt32BE(3, 4); // SyncConnected
  body.writeInt32BE(Buffer.byteLength(path), 8);
  body.write(path, 12);
  return body;
}

type FakeManager = TappableConnectionManager & {
  /** What happened, in order: frames nzc got, answers the tap gave, notifications. */
  log: string[];
};

/** nzc's side: records the frames it gets and answers its pending requests in order. */
function fakeManager(pending: readonly { xid: number; raw: boolean }[]): FakeManager {
  const log: string[] = [];
  const manager: FakeManager = {
    state: 2,
    socket: { destroy: () => log.push('socket destroyed') },
    zxid: Buffer.alloc(8),
    log,
    pendingQueue: pending.map(({ xid, raw }): PendingPacket => {
      const callback = (error: { code: number } | null, body?: Buffer): void => {
        const shown = error === null ? 'null' : JSON.stringify(error);
        log.push(`answer ${xid}: ${shown} ${body?.toString() ?? '-'}`);
      };
      return { request: raw ? { header: { xid }, raw: true } : { header: { xid } }, callback };
    }),
    onSocketData(buffer: Buffer) {
      const xid = buffer.readInt32BE(4);
      log.push(`nzc ${xid} ${buffer.subarray(20).toString()}`);
      if (xid >= 0) manager.pendingQueue.shift();
    },
  };
  return manager;
}

function tapOf(manager: FakeManager): NzcReplyTap {
  return new NzcReplyTap(manager, {
    notify: (event: WatcherEvent) =>
      manager.log.push(`event ${event.type} ${event.state} ${event.path}`),
    nzcKnowsCode: (code) => NZC_CODES.has(code),
  });
}

/** Error codes nzc 1.1.3's Exception knows (a few of them). */
const NZC_CODES = new Set([-4, -101, -103, -112]);

describe('NzcReplyTap', () => {
  const stream = Buffer.concat([
    frame(-1, 0, watcherEvent(2, '/lock/a')),
    frame(7, 0, Buffer.from('children'), 1234n),
    frame(-1, 0, Buffer.from('event')), // not a WatcherEvent: left to nzc
    frame(8, 0, Buffer.from('acl')),
  ]);
  const expected = [
    'event 2 3 /lock/a',
    'answer 7: null children',
    'nzc -1 event',
    'nzc 8 acl', // not a raw request: nzc decodes it
  ];

  it('answers raw requests and decodes notifications, handing nzc the rest whole and in wire order, at every split of the stream', () => {
    for (let split = 0; split <= stream.length; split++) {
      const manager = fakeManager([
        { xid: 7, raw: true },
        { xid: 8, raw: false },
      ]);
      tapOf(manager);
      manager.onSocketData(stream.subarray(0, split));
      manager.onSocketData(stream.subarray(split));
      assert.deepEqual(manager.log, expected, `split at ${split}`);
      assert.equal(manager.pendingQueue.length, 0);
    }
  });

  it('notes the zxid of a reply it answers, as nzc does', () => {
    const manager = fakeManager([{ xid: 7, raw: true }]);
    tapOf(manager);
    manager.onSocketData(frame(7, 0, Buffer.alloc(0), 0x0102030405n));
    assert.equal(manager.zxid.readBigInt64BE(0), 0x0102030405n);
  });

  it('joins frames that come a byte at a time', () => {
    const manager = fakeManager([
      { xid: 7, raw: true },
      { xid: 8, raw: false },
    ]);
    tapOf(manager);
    for (let i = 0; i < stream.length; i++) manager.onSocketData(stream.subarray(i, i + 1));
    assert.deepEqual(manager.log, expected);
  });

  it("gives a raw request the server's error as a record of the code, whether nzc knows the code or not; frames of an old socket are dropped", () => {
    const manager = fakeManager([
      { xid: 3, raw: true },
      { xid: 4, raw: true },
    ]);
    tapOf(manager);
    const failed = frame(3, -101);
    manager.onSocketData(failed.subarray(0, 10));
    // A reconnect: the half frame is void.
    (manager as { socket: object }).socket = { destroy: () => manager.log.push('destroyed') };
    manager.onSocketData(Buffer.concat([failed, frame(4, -118)]));
    assert.deepEqual(manager.log, ['answer 3: {"code":-101} ', 'answer 4: {"code":-118} ']);
  });

  it("leaves nzc's own request's reply to nzc when nzc knows its error code", () => {
    const manager = fakeManager([{ xid: 5, raw: false }]);
    tapOf(manager);
    manager.onSocketData(frame(5, -101, Buffer.from('setWatches')));
    assert.deepEqual(manager.log, ['nzc 5 setWatches']);
  });

  it("ends the connection over nzc's own request's reply with a code nzc does not know (its handler would throw), dropping the rest of that socket's stream", () => {
    const manager = fakeManager([
      { xid: 5, raw: false },
      { xid: 6, raw: true },
    ]);
    tapOf(manager);
    const rest = frame(6, 0, Buffer.from('after'));
    manager.onSocketData(Buffer.concat([frame(5, -118), rest.subarray(0, 8)]));
    manager.onSocketData(rest.subarray(8));
    assert.deepEqual(manager.log, ['socket destroyed']);
    // nzc fails both as the socket closes (CONNECTION_LOSS): the tap leaves them queued.
    assert.equal(manager.pendingQueue.length, 2);
  });

  it('leaves a reply that does not answer the head of the pending queue to nzc', () => {
    const manager = fakeManager([
      { xid: 1, raw: true },
      { xid: 2, raw: false },
      { xid: 3, raw: true },
    ]);
    tapOf(manager);
    manager.onSocketData(
      Buffer.concat([
        frame(1, 0, Buffer.from('one')),
        frame(2, 0, Buffer.from('two')),
        frame(5, 0, Buffer.from('out of order')), // nzc drops the connection over this one
      ]),
    );
    assert.deepEqual(manager.log, ['answer 1: null one', 'nzc 2 two', 'nzc 5 out of order']);
  });
});
