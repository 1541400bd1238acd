import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { create2OpCode, decodeCreate, decodeCreate2, encodeCreate2 } from '../src/create-codec.js';
import { CreateFlag } from '../src/create-flag.js';
import { JuteWriter } from '../src/jute-writer.js';
import { OpCode } from '../src/op-code.js';
import { decodeStat } from '../src/stat.js';
import { SAMPLE_STAT, statBytes } from './stat-fixture.js';

const OPEN = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];

describe('encodeCreate2', () => {
  it('writes a CreateRequest byte for byte: path, data, one ACL, flags', () => {
    const body = encodeCreate2('/a', Buffer.from('x'), OPEN, CreateFlag.EPHEMERAL_SEQUENTIAL);
    const expected = Buffer.concat([
      Buffer.from('00000002', 'hex'),
      Buffer.from('/a'),
      Buffer.from('00000001', 'hex'),
      Buffer.from('x'),
      Buffer.from('00000001' + '0000001f' + '00000005', 'hex'),
      Buffer.from('world'),
      Buffer.from('00000006', 'hex'),
      Buffer.from('anyone'),
      Buffer.from('00000003', 'hex'),
    ]);
    assert.deepEqual(body, expected);
  });

  it('appends the ttl as a long for a CreateTTLRequest', () => {
    const plain = encodeCreate2('/t', Buffer.alloc(0), OPEN, CreateFlag.PERSISTENT_WITH_TTL);
    const ttl = encodeCreate2('/t', Buffer.alloc(0), OPEN, CreateFlag.PERSISTENT_WITH_TTL, 60_000);
    assert.equal(ttl.length, plain.length + 8);
    assert.deepEqual(ttl.subarray(0, plain.length), plain);
    assert.equal(ttl.readBigInt64BE(plain.length), 60_000n);
  });

  it('counts UTF-8 bytes, not characters, in length prefixes', () => {
    const body = encodeCreate2('/ä', Buffer.alloc(0), [], CreateFlag.PERSISTENT);
    assert.equal(body.readInt32BE(0), 3);
    assert.equal(body.toString('utf8', 4, 7), '/ä');
    // data (empty), an empty ACL vector, flags
    assert.deepEqual([...body.subarray(7)], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('decodeCreate2', () => {
  it('reads the created path and the Stat behind it', () => {
    const reply = Buffer.concat([
      Buffer.from(new JuteWriter().string('/lock-0000000007').toBuffer()),
      statBytes(),
    ]);
    const { path, stat } = decodeCreate2(reply);
    assert.equal(path, '/lock-0000000007');
    assert.deepEqual(decodeStat(stat), SAMPLE_STAT);
  });

  it('throws on a reply cut short inside the Stat', () => {
    const reply = Buffer.concat([
      Buffer.from(new JuteWriter().string('/n').toBuffer()),
      statBytes().subarray(0, 60),
    ]);
    assert.throws(() => decodeCreate2(reply), /need 68 bytes/);
  });
});

describe('decodeCreate', () => {
  it("reads the classic create's reply: the created path alone", () => {
    const body = new JuteWriter(32).string('/q/item-0000000007').toBuffer();
    assert.equal(decodeCreate(body), '/q/item-0000000007');
  });
});

describe('create2OpCode', () => {
  it('sends containers and TTL nodes with their own ops, the rest as create2', () => {
    assert.equal(create2OpCode('CONTAINER'), OpCode.createContainer);
    assert.equal(create2OpCode('PERSISTENT_WITH_TTL'), OpCode.createTTL);
    assert.equal(create2OpCode('PERSISTENT_SEQUENTIAL_WITH_TTL'), OpCode.createTTL);
    assert.equal(create2OpCode('EPHEMERAL_SEQUENTIAL'), OpCode.create2);
    assert.deepEqual([OpCode.create2, OpCode.createContainer, OpCode.createTTL], [15, 19, 21]);
  });
});
