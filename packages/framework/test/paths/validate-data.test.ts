import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { isInvalidArgument } from '../../src/errors/predicates.js';
import { MAX_NODE_DATA_BYTES, validateData } from '../../src/paths/validate-data.js';
import {
  MAX_TIMER_DELAY_MS,
  checkCount,
  validateTimeoutMs,
  validateVersion,
} from '../../src/checks/validate-number.js';

function throwsMessage(fn: () => void, message: string): void {
  assert.throws(fn, (err: unknown) => isInvalidArgument(err) && (err as Error).message === message);
}

describe('validateData', () => {
  it('keeps jute.maxbuffer minus a reserve for path, header and ACLs', () => {
    assert.equal(MAX_NODE_DATA_BYTES, 1_043_455);
  });

  it('accepts undefined, Buffers and Uint8Arrays up to the limit', () => {
    validateData(undefined);
    validateData(Buffer.alloc(0));
    validateData(new Uint8Array(10));
    validateData(Buffer.alloc(MAX_NODE_DATA_BYTES));
  });

  it('rejects data over the limit, naming the size and the limit', () => {
    throwsMessage(
      () => validateData(Buffer.alloc(1_048_577), { path: '/big' }),
      'INVALID_ARGUMENT: /big - data is 1048577 bytes; the limit is 1043455 bytes ' +
        "(ZooKeeper's jute.maxbuffer, 1048575 bytes, covers the whole request including the " +
        'path and header)',
    );
    assert.throws(() => validateData(Buffer.alloc(MAX_NODE_DATA_BYTES + 1)), isInvalidArgument);
  });

  it('honours maxBytes', () => {
    validateData(Buffer.alloc(10), { maxBytes: 10 });
    assert.throws(() => validateData(Buffer.alloc(11), { maxBytes: 10 }), isInvalidArgument);
  });

  it('rejects data that is not bytes', () => {
    throwsMessage(
      () => validateData('hello'),
      'INVALID_ARGUMENT: data must be a Buffer or Uint8Array; got "hello" (a string)',
    );
    assert.throws(() => validateData([1, 2]), isInvalidArgument);
    assert.throws(() => validateData(null), isInvalidArgument);
  });
});

describe('validateTimeoutMs', () => {
  it('accepts finite numbers from 0 to the timer limit', () => {
    for (const value of [0, 1, 1.5, 60_000, MAX_TIMER_DELAY_MS])
      validateTimeoutMs('timeoutMs', value);
  });

  it('rejects negative, non-finite, non-number and over-long values, naming the option', () => {
    throwsMessage(
      () => validateTimeoutMs('sessionTimeoutMs', -1),
      'INVALID_ARGUMENT: sessionTimeoutMs must be a finite number >= 0; got -1',
    );
    throwsMessage(
      () => validateTimeoutMs('timeoutMs', Number.NaN),
      'INVALID_ARGUMENT: timeoutMs must be a finite number >= 0; got NaN',
    );
    throwsMessage(
      () => validateTimeoutMs('timeoutMs', Infinity),
      'INVALID_ARGUMENT: timeoutMs must be a finite number >= 0; got Infinity',
    );
    throwsMessage(
      () => validateTimeoutMs('timeoutMs', '5'),
      'INVALID_ARGUMENT: timeoutMs must be a finite number >= 0; got "5" (a string)',
    );
    assert.throws(() => validateTimeoutMs('timeoutMs', MAX_TIMER_DELAY_MS + 1), isInvalidArgument);
  });
});

describe('validateVersion', () => {
  it('accepts undefined, -1 (any version) and versions up to 2^31 - 1', () => {
    for (const value of [undefined, -1, 0, 7, 2_147_483_647]) validateVersion(value);
  });

  it('rejects anything else', () => {
    for (const value of [-2, 1.5, 2_147_483_648, Number.NaN, '3', null]) {
      assert.throws(() => validateVersion(value), isInvalidArgument);
    }
    throwsMessage(
      () => validateVersion(-2),
      'INVALID_ARGUMENT: version must be a whole number from -1 (any version) to 2147483647; got -2',
    );
  });
});

describe('checkCount', () => {
  it('accepts whole numbers up to Number.MAX_SAFE_INTEGER and rejects the rest', () => {
    for (const value of [0, 3, Number.MAX_SAFE_INTEGER]) checkCount('n', value);
    for (const value of [-1, 1.5, Infinity, Number.NaN, Number.MAX_SAFE_INTEGER + 1, undefined]) {
      assert.throws(() => checkCount('n', value), isInvalidArgument);
    }
  });
});
