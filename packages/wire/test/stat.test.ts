import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeStat, STAT_BYTES } from '../src/stat.js';
import { SAMPLE_STAT, statBytes } from './stat-fixture.js';

describe('decodeStat', () => {
  it('reads every field at its jute offset', () => {
    const bytes = statBytes();
    assert.equal(bytes.length, STAT_BYTES);
    assert.deepEqual(decodeStat(bytes), SAMPLE_STAT);
  });

  it('reads a known byte layout: czxid first, pzxid last', () => {
    const bytes = Buffer.alloc(STAT_BYTES);
    bytes.writeBigInt64BE(0x1234n, 0); // czxid
    bytes.writeInt32BE(7, 32); // version
    bytes.writeInt32BE(3, 56); // numChildren
    bytes.writeBigInt64BE(0x5678n, 60); // pzxid
    const stat = decodeStat(bytes);
    assert.equal(stat.czxid, 0x1234n);
    assert.equal(stat.version, 7);
    assert.equal(stat.numChildren, 3);
    assert.equal(stat.pzxid, 0x5678n);
    assert.equal(stat.mzxid, 0n);
  });

  it('reads at an offset and throws when fewer than 68 bytes are left', () => {
    const bytes = Buffer.concat([Buffer.from([9, 9]), statBytes()]);
    assert.deepEqual(decodeStat(bytes, 2), SAMPLE_STAT);
    assert.throws(() => decodeStat(bytes, 3), /Stat: need 68 bytes at offset 3, have 67/);
  });
});
