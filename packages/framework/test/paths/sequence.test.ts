import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  compareSequence,
  compareSequenceWrapping,
  sequenceSuffix,
} from '../../src/paths/sequence.js';

// What ZooKeeper's String.format("%010d", counter) produces, checked against Java.
const formatted: ReadonlyArray<readonly [number, string]> = [
  [0, '0000000000'],
  [42, '0000000042'],
  [2_147_483_647, '2147483647'],
  [-1, '-000000001'],
  [-999_999_999, '-999999999'],
  [-1_000_000_000, '-1000000000'],
  [-2_147_483_648, '-2147483648'],
];

describe('sequenceSuffix', () => {
  it('reads the 10-character suffix as a signed 32-bit number', () => {
    assert.equal(sequenceSuffix('lock-0000000042'), 42);
    assert.equal(sequenceSuffix('0000000000'), 0);
    assert.equal(sequenceSuffix('n_2147483647'), 2_147_483_647);
    assert.equal(sequenceSuffix('lock--000000001'), -1);
    assert.equal(sequenceSuffix('lock--999999999'), -999_999_999);
  });

  it('gives undefined when the name does not end in a sequence', () => {
    for (const name of ['lock-', 'lock-42', '', 'lock-00000000x1', 'n_9999999999', '000000001']) {
      assert.equal(sequenceSuffix(name), undefined, name);
    }
  });

  it('with the prefix, reads every value ZooKeeper can write, including 11-character negatives', () => {
    for (const [value, text] of formatted) {
      assert.equal(sequenceSuffix(`lock-${text}`, { prefix: 'lock-' }), value, text);
    }
    assert.equal(sequenceSuffix('lock-0000000001', { prefix: 'latch-' }), undefined);
    assert.equal(sequenceSuffix('lock-00000000001', { prefix: 'lock-' }), undefined);
    assert.equal(sequenceSuffix('lock--2147483649', { prefix: 'lock-' }), undefined);
  });
});

describe('compareSequence', () => {
  it('is plain signed order', () => {
    assert.deepEqual(
      [3, -1, 0, 2_147_483_647, -2_147_483_648].sort(compareSequence),
      [-2_147_483_648, -1, 0, 3, 2_147_483_647],
    );
    assert.equal(compareSequence(5, 5), 0);
  });
});

describe('compareSequenceWrapping', () => {
  it('orders across the wrap from 2147483647 to -2147483648', () => {
    assert.equal(compareSequenceWrapping(2_147_483_647, -2_147_483_648), -1);
    assert.equal(compareSequenceWrapping(-2_147_483_648, 2_147_483_647), 1);
    assert.equal(compareSequenceWrapping(2_147_483_640, -2_147_483_600), -1);
    const window = [-2_147_483_647, 2_147_483_646, -2_147_483_648, 2_147_483_647];
    assert.deepEqual(
      [...window].sort(compareSequenceWrapping),
      [2_147_483_646, 2_147_483_647, -2_147_483_648, -2_147_483_647],
    );
  });

  it('agrees with plain order for numbers less than 2^31 apart without a wrap', () => {
    assert.equal(compareSequenceWrapping(1, 2), -1);
    assert.equal(compareSequenceWrapping(-5, 3), -1);
    assert.equal(compareSequenceWrapping(7, 7), 0);
  });

  it('falls back to plain order exactly 2^31 apart, so it stays antisymmetric', () => {
    assert.equal(compareSequenceWrapping(0, -2_147_483_648), 1);
    assert.equal(compareSequenceWrapping(-2_147_483_648, 0), -1);
  });
});
