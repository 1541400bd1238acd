import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readInt32, readInt64, readInt64AsNumber, writeInt32 } from '../src/big-endian.js';

const INT32S = [0, 1, -1, 255, 256, 0x7fffffff, -0x80000000, 123_456_789, -987_654_321];
const INT64S = [
  0n,
  1n,
  -1n,
  0xffffffffn,
  0x100000000n,
  2n ** 53n - 1n,
  -(2n ** 53n),
  2n ** 53n + 1n,
  2n ** 63n - 1n,
  -(2n ** 63n),
  0x7b0a00000002n, // a session id as servers make them
  -0x123456789abcdefn,
];

describe('big-endian integers', () => {
  it('reads every int32 as Buffer.readInt32BE does, at any offset', () => {
    const bytes = Buffer.alloc(7);
    for (const value of INT32S) {
      bytes.writeInt32BE(value, 3);
      assert.equal(readInt32(bytes, 3), value);
    }
  });

  it('writes every int32 as Buffer.writeInt32BE does, and returns the next offset', () => {
    for (const value of INT32S) {
      const ours = Buffer.alloc(6);
      const theirs = Buffer.alloc(6);
      assert.equal(writeInt32(ours, 2, value), 6);
      theirs.writeInt32BE(value, 2);
      assert.deepEqual(ours, theirs);
    }
  });

  it('reads every int64 exactly, on both sides of 2^53', () => {
    const bytes = Buffer.alloc(9);
    for (const value of INT64S) {
      bytes.writeBigInt64BE(value, 1);
      assert.equal(readInt64(bytes, 1), value, `0x${value.toString(16)}`);
    }
  });

  it('reads an int64 as a number where it fits (times in milliseconds)', () => {
    const bytes = Buffer.alloc(8);
    for (const value of [0n, 1_764_300_000_000n, -1n, 2n ** 53n - 1n]) {
      bytes.writeBigInt64BE(value, 0);
      assert.equal(readInt64AsNumber(bytes, 0), Number(value));
    }
  });
});
