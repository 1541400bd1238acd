import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeConnectResponse, encodeConnectRequest } from '../src/connect-codec.js';
import { encodeDelete } from '../src/delete-codec.js';
import { codeName, ZooKeeperErrorCode } from '../src/error-code.js';
import { JuteReader } from '../src/jute-reader.js';
import { JuteWriter } from '../src/jute-writer.js';
import { OpCode } from '../src/op-code.js';
import { decodeInt, decodeStrings, encodePath } from '../src/path-request-codec.js';
import { readReplyHeader } from '../src/reply-header.js';
import { encodeRequest } from '../src/request-frame.js';
import {
  AddWatchMode,
  decodeWatcherEvent,
  encodeAddWatch,
  encodeRemoveWatches,
  WatcherType,
} from '../src/watch-codec.js';

describe('encodeAddWatch and encodeRemoveWatches', () => {
  it('write `ustring path; int value`', () => {
    const path = Buffer.from('/w').toString('hex');
    assert.equal(
      encodeAddWatch('/w', AddWatchMode.PERSISTENT_RECURSIVE).toString('hex'),
      `00000002${path}00000001`,
    );
    assert.equal(
      encodeRemoveWatches('/w', WatcherType.ANY).toString('hex'),
      `00000002${path}00000003`,
    );
    assert.deepEqual([OpCode.addWatch, OpCode.removeWatches], [106, 18]);
  });
});

describe('decodeWatcherEvent', () => {
  it('reads `int type; int state; ustring path`', () => {
    // NodeDeleted (2), SyncConnected (3), "/a/b"
    const body = Buffer.from('00000002' + '00000003' + '00000004' + '2f612f62', 'hex');
    assert.deepEqual(decodeWatcherEvent(body), { type: 2, state: 3, path: '/a/b' });
  });

  it('throws on a body cut short', () => {
    assert.throws(() => decodeWatcherEvent(Buffer.from('0000000200000003000000082f61', 'hex')));
  });
});

describe('encodeDelete', () => {
  it('writes `ustring path; int version` (op 2), -1 as ffffffff', () => {
    const path = Buffer.from('/d/n').toString('hex');
    assert.equal(encodeDelete('/d/n', -1).toString('hex'), `00000004${path}ffffffff`);
    assert.equal(encodeDelete('/d/n', 7).toString('hex'), `00000004${path}00000007`);
    assert.equal(OpCode.delete, 2);
  });
});

describe('the path requests (sync, getEphemerals, getAllChildrenNumber)', () => {
  it('encode the path as a ustring', () => {
    assert.equal(encodePath('/s').toString('hex'), '00000002' + Buffer.from('/s').toString('hex'));
    assert.deepEqual(
      [OpCode.sync, OpCode.getEphemerals, OpCode.getAllChildrenNumber],
      [9, 103, 104],
    );
  });

  it('decode a vector of strings (null as none) and an int', () => {
    const list = new JuteWriter().int(2).string('/e1').string('/e2').toBuffer();
    assert.deepEqual(decodeStrings(list), ['/e1', '/e2']);
    assert.deepEqual(decodeStrings(new JuteWriter().int(-1).toBuffer()), []);
    assert.equal(decodeInt(new JuteWriter().int(42).toBuffer()), 42);
    assert.throws(
      () => decodeStrings(new JuteWriter().int(1).int(5).toBuffer()),
      /jute: cut short, need 5/,
    );
  });
});

describe('encodeRequest and readReplyHeader', () => {
  it('frame a request as length, xid, op code, body', () => {
    const frame = encodeRequest(7, OpCode.sync, encodePath('/'));
    assert.equal(frame.toString('hex'), '0000000d' + '00000007' + '00000009' + '00000001' + '2f');
  });

  it('read xid, zxid and err, leaving the reader at the record', () => {
    const reader = new JuteReader(
      new JuteWriter().int(-2).long(0x1ffn).int(-101).int(5).toBuffer(),
    );
    assert.deepEqual(readReplyHeader(reader), { xid: -2, zxid: 0x1ffn, err: -101 });
    assert.equal(reader.int(), 5);
  });
});

describe('the connect codec', () => {
  it('encodes a ConnectRequest with its length prefix and trailing readOnly flag', () => {
    const frame = encodeConnectRequest({
      lastZxidSeen: 0n,
      sessionTimeoutMs: 10_000,
      sessionId: 0x1234n,
      password: Buffer.alloc(16),
      readOnly: false,
    });
    const expected =
      '0000002d' + // 45 bytes follow
      '00000000' + // protocolVersion
      '0000000000000000' + // lastZxidSeen
      '00002710' + // timeOut 10000
      '0000000000001234' + // sessionId
      '00000010' +
      '00'.repeat(16) + // passwd
      '00';
    assert.equal(frame.toString('hex'), expected);
  });

  it('decodes a ConnectResponse with or without the readOnly byte', () => {
    const base = new JuteWriter().int(0).int(4000).long(0x99n).buffer(Buffer.from('pw'));
    assert.deepEqual(decodeConnectResponse(Buffer.from(base.toBuffer())), {
      sessionTimeoutMs: 4000,
      sessionId: 0x99n,
      password: Buffer.from('pw'),
      readOnly: false,
    });
    assert.equal(decodeConnectResponse(base.bool(true).toBuffer()).readOnly, true);
  });
});

describe('codeName', () => {
  it("names ZooKeeper's codes and answers UNKNOWN for other numbers", () => {
    assert.equal(codeName(-101), 'NO_NODE');
    assert.equal(codeName(ZooKeeperErrorCode.QUOTA_EXCEEDED), 'QUOTA_EXCEEDED');
    assert.equal(codeName(-999), 'UNKNOWN');
  });

  it('has one name per number', () => {
    const numbers = Object.values(ZooKeeperErrorCode);
    assert.equal(new Set(numbers).size, numbers.length);
  });
});
