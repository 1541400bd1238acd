import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { codeName, ZooKeeperErrorCode } from '../../src/errors/zookeeper-error-code.js';
import { errorFromCode } from '../../src/errors/error-from-code.js';
import { ZooKeeperError } from '../../src/errors/zookeeper-error.js';
import { HoldLostError } from '../../src/errors/hold-lost-error.js';
import {
  BadVersionError,
  ClosedError,
  ConnectionLossError,
  InvalidArgumentError,
  NoAuthError,
  NodeExistsError,
  NoNodeError,
  NotEmptyError,
  OperationTimeoutError,
  SessionExpiredError,
} from '../../src/errors/zookeeper-error-classes.js';

// ZooKeeper 3.8's KeeperException.Code, copied by hand so a typo in the source table shows up.
const zooKeeper38Codes: ReadonlyArray<readonly [string, number]> = [
  ['OK', 0],
  ['SYSTEM_ERROR', -1],
  ['RUNTIME_INCONSISTENCY', -2],
  ['DATA_INCONSISTENCY', -3],
  ['CONNECTION_LOSS', -4],
  ['MARSHALLING_ERROR', -5],
  ['UNIMPLEMENTED', -6],
  ['OPERATION_TIMEOUT', -7],
  ['BAD_ARGUMENTS', -8],
  ['UNKNOWN_SESSION', -12],
  ['NEW_CONFIG_NO_QUORUM', -13],
  ['RECONFIG_IN_PROGRESS', -14],
  ['API_ERROR', -100],
  ['NO_NODE', -101],
  ['NO_AUTH', -102],
  ['BAD_VERSION', -103],
  ['NO_CHILDREN_FOR_EPHEMERALS', -108],
  ['NODE_EXISTS', -110],
  ['NOT_EMPTY', -111],
  ['SESSION_EXPIRED', -112],
  ['INVALID_CALLBACK', -113],
  ['INVALID_ACL', -114],
  ['AUTH_FAILED', -115],
  ['SESSION_MOVED', -118],
  ['NOT_READ_ONLY', -119],
  ['EPHEMERAL_ON_LOCAL_SESSION', -120],
  ['NO_WATCHER', -121],
  ['REQUEST_TIMEOUT', -122],
  ['RECONFIG_DISABLED', -123],
  ['SESSION_CLOSED_REQUIRE_SASL_AUTH', -124],
  ['QUOTA_EXCEEDED', -125],
  ['THROTTLED_OP', -127],
];

describe('ZooKeeperErrorCode', () => {
  it('holds exactly the codes of ZooKeeper 3.8 with their wire numbers', () => {
    assert.deepEqual(Object.entries(ZooKeeperErrorCode), zooKeeper38Codes);
  });

  it('codeName maps every wire number back to its name', () => {
    for (const [name, number] of zooKeeper38Codes) assert.equal(codeName(number), name);
  });

  it('codeName gives UNKNOWN for numbers ZooKeeper 3.8 does not define, without throwing', () => {
    for (const number of [-9, -126, -999, 1, Number.NaN, 0.5]) {
      assert.equal(codeName(number), 'UNKNOWN');
    }
  });
});

describe('ZooKeeperError', () => {
  it('formats the message as CODE (number): path', () => {
    const err = new ZooKeeperError('NO_NODE', { zkCode: -101, path: '/a/b' });
    assert.equal(err.message, 'NO_NODE (-101): /a/b');
    assert.equal(err.name, 'ZooKeeperError');
    assert.equal(err.code, 'NO_NODE');
    assert.equal(err.zkCode, -101);
    assert.equal(err.path, '/a/b');
  });

  it('adds the detail after the path, or after the code when there is no path', () => {
    assert.equal(
      new ZooKeeperError('NO_NODE', { zkCode: -101, path: '/a/b', detail: 'parent missing' })
        .message,
      'NO_NODE (-101): /a/b - parent missing',
    );
    assert.equal(new ClosedError().message, 'CLOSED: the client is closed');
  });

  it('quotes a path holding control characters so the message stays on one line', () => {
    const err = new InvalidArgumentError('bad', { path: '/a\nb' });
    assert.equal(err.message, 'INVALID_ARGUMENT: "/a\\nb" - bad');
  });

  it('is retryable exactly for CONNECTION_LOSS, OPERATION_TIMEOUT, SESSION_MOVED, SESSION_EXPIRED', () => {
    const names = [
      ...zooKeeper38Codes.map(([name]) => name),
      'CLOSED',
      'INVALID_ARGUMENT',
      'UNKNOWN',
    ];
    const retryable = names.filter(
      (name) => new ZooKeeperError(name as ZooKeeperError['code']).retryable,
    );
    assert.deepEqual(retryable, [
      'CONNECTION_LOSS',
      'OPERATION_TIMEOUT',
      'SESSION_EXPIRED',
      'SESSION_MOVED',
    ]);
  });

  it('keeps the standard cause, and has none when none was given', () => {
    const cause = new Error('socket closed');
    assert.equal(new ConnectionLossError({ cause }).cause, cause);
    assert.equal('cause' in new ConnectionLossError(), false);
  });
});

describe('ZooKeeperError subclasses', () => {
  const cases = [
    [new NoNodeError(), 'NoNodeError', 'NO_NODE', -101],
    [new NodeExistsError(), 'NodeExistsError', 'NODE_EXISTS', -110],
    [new BadVersionError(), 'BadVersionError', 'BAD_VERSION', -103],
    [new NotEmptyError(), 'NotEmptyError', 'NOT_EMPTY', -111],
    [new ConnectionLossError(), 'ConnectionLossError', 'CONNECTION_LOSS', -4],
    [new SessionExpiredError(), 'SessionExpiredError', 'SESSION_EXPIRED', -112],
    [new NoAuthError(), 'NoAuthError', 'NO_AUTH', -102],
    [new OperationTimeoutError(), 'OperationTimeoutError', 'OPERATION_TIMEOUT', undefined],
    [new ClosedError(), 'ClosedError', 'CLOSED', undefined],
    [new InvalidArgumentError('x'), 'InvalidArgumentError', 'INVALID_ARGUMENT', undefined],
    [
      new HoldLostError({ path: '/l', detail: 'the hold was released', sent: false }),
      'HoldLostError',
      'HOLD_LOST',
      undefined,
    ],
  ] as const;

  for (const [err, name, code, zkCode] of cases) {
    it(`${name} has code ${code} and wire number ${String(zkCode)}`, () => {
      assert.ok(err instanceof ZooKeeperError);
      assert.ok(err instanceof Error);
      assert.equal(err.name, name);
      assert.equal(err.code, code);
      assert.equal(err.zkCode, zkCode);
      assert.match(String(err.stack), new RegExp(`^${name}: ${code}`));
    });
  }

  it('OperationTimeoutError carries -7 only when the server sent it', () => {
    assert.equal(new OperationTimeoutError({ fromServer: true }).zkCode, -7);
    assert.equal(new OperationTimeoutError({ fromServer: true }).message, 'OPERATION_TIMEOUT (-7)');
    assert.equal(
      new OperationTimeoutError({ path: '/a', detail: 'no reply within 5000 ms' }).message,
      'OPERATION_TIMEOUT: /a - no reply within 5000 ms',
    );
  });
});

describe('errorFromCode', () => {
  const subclassCases = [
    [-101, NoNodeError],
    [-110, NodeExistsError],
    [-103, BadVersionError],
    [-111, NotEmptyError],
    [-4, ConnectionLossError],
    [-112, SessionExpiredError],
    [-102, NoAuthError],
    [-7, OperationTimeoutError],
  ] as const;

  for (const [code, Subclass] of subclassCases) {
    it(`turns ${code} into ${Subclass.name} with the number kept`, () => {
      const err = errorFromCode(code, { path: '/x' });
      assert.ok(err instanceof Subclass);
      assert.equal(err.zkCode, code);
      assert.equal(err.path, '/x');
    });
  }

  it('turns a code without a subclass into a base error under ZooKeeper name', () => {
    const err = errorFromCode(-118, { path: '/x', message: 'moved' });
    assert.equal(err.constructor, ZooKeeperError);
    assert.equal(err.code, 'SESSION_MOVED');
    assert.equal(err.retryable, true);
    assert.equal(err.message, 'SESSION_MOVED (-118): /x - moved');
  });

  it('turns an unknown number into UNKNOWN with the number kept, and keeps the cause', () => {
    const cause = new Error('raw');
    const err = errorFromCode(-999, { cause });
    assert.equal(err.code, 'UNKNOWN');
    assert.equal(err.zkCode, -999);
    assert.equal(err.message, 'UNKNOWN (-999)');
    assert.equal(err.cause, cause);
    assert.equal(err.retryable, false);
  });

  it('never throws, whatever the number', () => {
    for (const code of [0, Number.NaN, Infinity, 1.5, -(2 ** 40)]) {
      assert.ok(errorFromCode(code) instanceof ZooKeeperError);
    }
    assert.equal(errorFromCode(0).code, 'OK');
  });
});
