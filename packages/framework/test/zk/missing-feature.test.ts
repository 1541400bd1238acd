import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorFromCode } from '../../src/errors/error-from-code.js';
import { isUnimplemented } from '../../src/errors/predicates.js';
import { ZooKeeperErrorCode } from '../../src/errors/zookeeper-error-code.js';
import {
  ConnectionLossError,
  UnimplementedError,
} from '../../src/errors/zookeeper-error-classes.js';
import { missingFeature } from '../../src/zk/missing-feature.js';
import { CreateMode } from '../../src/zk/zookeeper-types.js';

// The 3.8 test server implements every request the adapter writes itself, so only the TTL
// wording is reached end to end; this pins the words for every feature the adapter names.
const CREATE2 = /create2 \(a create answered with the Stat\) needs ZooKeeper 3\.5 or later/;
const TTL =
  /TTL nodes are disabled on this server: start it with zookeeper\.extendedTypesEnabled=true/;

const expected: [Parameters<typeof missingFeature>[1], RegExp][] = [
  ['getEphemerals', /getEphemerals needs ZooKeeper 3\.6 or later/],
  ['getAllChildrenNumber', /getAllChildrenNumber needs ZooKeeper 3\.6 or later/],
  [CreateMode.CONTAINER, /container nodes \(CreateMode CONTAINER\) need ZooKeeper 3\.5\.1/],
  [CreateMode.PERSISTENT_WITH_TTL, TTL],
  [CreateMode.PERSISTENT_SEQUENTIAL_WITH_TTL, TTL],
  // The plain modes go out as create2 (op 15), so an old server lacks create2 itself.
  [CreateMode.PERSISTENT, CREATE2],
  [CreateMode.EPHEMERAL, CREATE2],
  [CreateMode.PERSISTENT_SEQUENTIAL, CREATE2],
  [CreateMode.EPHEMERAL_SEQUENTIAL, CREATE2],
];

describe('missingFeature', () => {
  it('covers every CreateMode', () => {
    const modes = new Set<string>(Object.values(CreateMode));
    for (const [feature] of expected) modes.delete(feature);
    assert.deepEqual([...modes], []);
  });

  for (const [feature, words] of expected) {
    it(`an UNIMPLEMENTED answer for ${feature} becomes an UnimplementedError naming it`, () => {
      const answer = errorFromCode(-6, { path: '/app/node' });
      const error = missingFeature(answer, feature);
      assert.ok(error instanceof UnimplementedError, String(error));
      assert.ok(isUnimplemented(error));
      assert.equal(error.code, 'UNIMPLEMENTED');
      assert.equal(error.zkCode, ZooKeeperErrorCode.UNIMPLEMENTED);
      assert.equal(error.path, '/app/node');
      assert.equal(error.cause, answer);
      assert.match(error.message, words);
      assert.match(error.message, /^UNIMPLEMENTED .*\/app\/node/);
    });
  }

  it('any other error, or a non-error, comes back unchanged', () => {
    const others: unknown[] = [
      new ConnectionLossError({ path: '/app/node' }),
      errorFromCode(-101, { path: '/app/node' }),
      errorFromCode(-125),
      new Error('not from ZooKeeper'),
      'a string',
      undefined,
    ];
    for (const other of others) {
      for (const [feature] of expected) {
        assert.equal(missingFeature(other, feature), other, `${String(other)} / ${feature}`);
      }
    }
  });
});
