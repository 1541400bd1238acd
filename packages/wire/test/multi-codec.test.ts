import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeCreate2 } from '../src/create-codec.js';
import { JuteReader } from '../src/jute-reader.js';
import { JuteWriter } from '../src/jute-writer.js';
import { decodeMulti, encodeMulti, type MultiOp } from '../src/multi-codec.js';
import { decodeStat } from '../src/stat.js';
import { SAMPLE_STAT, statBytes } from './stat-fixture.js';

const OPEN = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];

/** MultiHeader {int type, bool done, int err} as hex. */
function header(type: number, done: boolean, err = -1): string {
  const bytes = Buffer.alloc(9);
  bytes.writeInt32BE(type, 0);
  bytes.writeUInt8(done ? 1 : 0, 4);
  bytes.writeInt32BE(err, 5);
  return bytes.toString('hex');
}

/** `ustring` as hex. */
function ustring(value: string): string {
  return new JuteWriter().string(value).toBuffer().toString('hex');
}

describe('encodeMulti', () => {
  it('writes check, delete and setData records between MultiHeaders, then the done header', () => {
    const body = encodeMulti([
      { type: 'check', path: '/c', version: 3 },
      { type: 'delete', path: '/d', version: -1 },
      { type: 'setData', path: '/s', data: Buffer.from('v'), version: 0 },
    ]);
    const expected =
      header(13, false) +
      ustring('/c') +
      '00000003' +
      header(2, false) +
      ustring('/d') +
      'ffffffff' +
      header(5, false) +
      ustring('/s') +
      '00000001' +
      Buffer.from('v').toString('hex') +
      '00000000' +
      header(-1, true);
    assert.equal(body.toString('hex'), expected);
  });

  it('writes a classic create as op 1, a container as 19 and a TTL node as 21 with its ttl', () => {
    const ops: MultiOp[] = [
      { type: 'create', path: '/p', data: Buffer.alloc(0), acl: OPEN, mode: 'EPHEMERAL' },
      { type: 'create', path: '/c', data: Buffer.alloc(0), acl: OPEN, mode: 'CONTAINER' },
      {
        type: 'create',
        path: '/t',
        data: Buffer.from('d'),
        acl: OPEN,
        mode: 'PERSISTENT_SEQUENTIAL_WITH_TTL',
        ttlMs: 5000,
      },
    ];
    const expected = Buffer.concat([
      Buffer.from(header(1, false), 'hex'),
      encodeCreate2('/p', Buffer.alloc(0), OPEN, 1),
      Buffer.from(header(19, false), 'hex'),
      encodeCreate2('/c', Buffer.alloc(0), OPEN, 4),
      Buffer.from(header(21, false), 'hex'),
      encodeCreate2('/t', Buffer.from('d'), OPEN, 6, 5000),
      Buffer.from(header(-1, true), 'hex'),
    ]);
    assert.deepEqual(encodeMulti(ops), expected);
  });

  it('maps every path through withChroot', () => {
    const body = encodeMulti([{ type: 'delete', path: '/x', version: 1 }], (p) => `/root${p}`);
    const reader = new JuteReader(body, 9);
    assert.equal(reader.string(), '/root/x');
  });
});

describe('decodeMulti', () => {
  it('reads each result kind of a successful multi', () => {
    const reply = Buffer.concat([
      Buffer.from(header(1, false, 0) + ustring('/a'), 'hex'),
      Buffer.from(header(15, false, 0) + ustring('/b'), 'hex'),
      statBytes(),
      Buffer.from(header(2, false, 0) + header(13, false, 0) + header(5, false, 0), 'hex'),
      statBytes(),
      Buffer.from(header(-1, true), 'hex'),
    ]);
    const results = decodeMulti(reply);
    assert.equal(results.length, 5);
    assert.deepEqual(results.slice(0, 4), [
      { type: 'create', path: '/a' },
      { type: 'create', path: '/b' },
      { type: 'delete' },
      { type: 'check' },
    ]);
    const setData = results[4];
    assert.equal(setData?.type, 'setData');
    assert.deepEqual(setData.type === 'setData' && decodeStat(setData.stat), SAMPLE_STAT);
  });

  it('reads a failed multi as one error code per op (0 for those that would have succeeded)', () => {
    const error = (code: number): string =>
      header(-1, false, code) + new JuteWriter().int(code).toBuffer().toString('hex');
    const reply = Buffer.from(error(0) + error(-103) + header(-1, true), 'hex');
    assert.deepEqual(decodeMulti(reply), [
      { type: 'error', code: 0 },
      { type: 'error', code: -103 },
    ]);
  });

  it('round-trips what encodeMulti wrote when the server answers in kind', () => {
    const ops: MultiOp[] = [
      { type: 'delete', path: '/gone', version: 2 },
      { type: 'check', path: '/here', version: 0 },
    ];
    const request = new JuteReader(encodeMulti(ops));
    const reply = new JuteWriter();
    for (;;) {
      const type = request.int();
      const done = request.bool();
      request.int();
      if (done) break;
      request.string();
      request.int(); // version: both ops end with it
      reply.int(type).bool(false).int(0);
    }
    reply.int(-1).bool(true).int(-1);
    assert.deepEqual(decodeMulti(reply.toBuffer()), [{ type: 'delete' }, { type: 'check' }]);
  });

  it('throws on a reply cut short and on an op type it does not know', () => {
    const cut = Buffer.from(header(5, false, 0), 'hex');
    assert.throws(() => decodeMulti(Buffer.concat([cut, statBytes().subarray(0, 10)])), /jute/);
    assert.throws(
      () => decodeMulti(Buffer.from(header(2, false, 0), 'hex')),
      /jute: cut short, need 4/,
    );
    assert.throws(
      () => decodeMulti(Buffer.from(header(99, false, 0) + header(-1, true), 'hex')),
      /unexpected op type 99/,
    );
  });
});
