import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  isBadVersion,
  isClosed,
  isConnectionLoss,
  isHoldLost,
  isInvalidArgument,
  isNoAuth,
  isNodeExists,
  isNoNode,
  isNotEmpty,
  isOperationTimeout,
  isRetryable,
  isSessionExpired,
  isZooKeeperError,
} from '../../src/errors/predicates.js';
import { errorFromCode } from '../../src/errors/error-from-code.js';
import { ZooKeeperError } from '../../src/errors/zookeeper-error.js';
import { HoldLostError } from '../../src/errors/hold-lost-error.js';
import {
  ClosedError,
  InvalidArgumentError,
  OperationTimeoutError,
} from '../../src/errors/zookeeper-error-classes.js';

describe('error predicates', () => {
  const cases = [
    [isNoNode, errorFromCode(-101)],
    [isNodeExists, errorFromCode(-110)],
    [isBadVersion, errorFromCode(-103)],
    [isNotEmpty, errorFromCode(-111)],
    [isConnectionLoss, errorFromCode(-4)],
    [isSessionExpired, errorFromCode(-112)],
    [isNoAuth, errorFromCode(-102)],
    [isOperationTimeout, new OperationTimeoutError()],
    [isClosed, new ClosedError()],
    [isInvalidArgument, new InvalidArgumentError('bad')],
    [isHoldLost, new HoldLostError({ path: '/lock/node', detail: 'gone', sent: false })],
  ] as const;

  for (const [predicate, matching] of cases) {
    it(`${predicate.name} is true for its own code only`, () => {
      assert.equal(predicate(matching), true);
      for (const [, other] of cases) {
        if (other !== matching) assert.equal(predicate(other), false);
      }
    });

    it(`${predicate.name} is false for values that are not ZooKeeper errors`, () => {
      for (const value of [
        undefined,
        null,
        'NO_NODE',
        -101,
        new Error('x'),
        { code: matching.code },
      ]) {
        assert.equal(predicate(value), false);
      }
    });
  }

  it('isRetryable is true for the four retryable codes and nothing else', () => {
    assert.equal(isRetryable(errorFromCode(-4)), true);
    assert.equal(isRetryable(errorFromCode(-7)), true);
    assert.equal(isRetryable(errorFromCode(-118)), true);
    assert.equal(isRetryable(errorFromCode(-112)), true);
    assert.equal(isRetryable(new OperationTimeoutError()), true);
    assert.equal(isRetryable(errorFromCode(-101)), false);
    assert.equal(isRetryable(errorFromCode(-999)), false);
    assert.equal(isRetryable(new ClosedError()), false);
    assert.equal(isRetryable(new Error('ECONNRESET')), false);
    assert.equal(isRetryable({ retryable: true }), false);
    assert.equal(isRetryable(undefined), false);
  });

  it('recognises an error made by another copy of the package by its registry symbol', () => {
    const foreign = Object.assign(new Error('NO_NODE (-101)'), {
      code: 'NO_NODE',
      retryable: false,
      [Symbol.for('@zkrecipes/framework:ZooKeeperError')]: true,
    });
    assert.equal(foreign instanceof ZooKeeperError, false);
    assert.equal(isZooKeeperError(foreign), true);
    assert.equal(isNoNode(foreign), true);
  });
});
