import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { isInvalidArgument } from '../../src/errors/predicates.js';
import {
  joinPath,
  nodeName,
  parentOf,
  pathWithNamespace,
  pathWithoutNamespace,
  validateNamespace,
} from '../../src/paths/zk-paths.js';

describe('joinPath', () => {
  // Curator's TestZKPaths.testMakePath, without its null cases.
  const cases: ReadonlyArray<readonly [string[], string]> = [
    [['/', '/'], '/'],
    [['', '/'], '/'],
    [['/', ''], '/'],
    [['', ''], '/'],
    [['foo', ''], '/foo'],
    [['foo', '/'], '/foo'],
    [['/foo', ''], '/foo'],
    [['/foo', '/'], '/foo'],
    [['', 'bar'], '/bar'],
    [['/', 'bar'], '/bar'],
    [['', '/bar'], '/bar'],
    [['/', '/bar'], '/bar'],
    [['foo', 'bar'], '/foo/bar'],
    [['/foo', 'bar'], '/foo/bar'],
    [['foo', '/bar'], '/foo/bar'],
    [['/foo', '/bar'], '/foo/bar'],
    [['/foo', 'bar/'], '/foo/bar'],
    [['/foo/', '/bar/'], '/foo/bar'],
    [['foo', 'bar', 'baz'], '/foo/bar/baz'],
    [['foo', 'bar', 'baz', 'qux'], '/foo/bar/baz/qux'],
    [['/foo', '/bar', '/baz'], '/foo/bar/baz'],
    [['/foo/', '/bar/', '/baz/'], '/foo/bar/baz'],
    [['foo', '', 'baz'], '/foo/baz'],
  ];
  for (const [[parent = '', child = '', ...more], expected] of cases) {
    it(`joins ${JSON.stringify([parent, child, ...more])} as Curator's makePath does`, () => {
      assert.equal(joinPath(parent, child, ...more), expected);
    });
  }
});

describe('parentOf and nodeName', () => {
  it('split a path into parent and node name', () => {
    assert.equal(parentOf('/a/b/c'), '/a/b');
    assert.equal(parentOf('/a'), '/');
    assert.equal(parentOf('/'), undefined);
    assert.equal(nodeName('/a/b/c'), 'c');
    assert.equal(nodeName('/a'), 'a');
    assert.equal(nodeName('/'), '');
  });

  it('reject invalid paths', () => {
    assert.throws(() => parentOf('a/b'), isInvalidArgument);
    assert.throws(() => nodeName('/a/'), isInvalidArgument);
  });
});

describe('namespaces', () => {
  it('pathWithNamespace prefixes the namespace, mapping the root to the namespace node', () => {
    assert.equal(pathWithNamespace('app', '/a'), '/app/a');
    assert.equal(pathWithNamespace('app', '/a/b'), '/app/a/b');
    assert.equal(pathWithNamespace('app', '/'), '/app');
    assert.equal(pathWithNamespace('app/v2', '/a'), '/app/v2/a');
    assert.equal(pathWithNamespace(undefined, '/a'), '/a');
    assert.equal(pathWithNamespace('', '/a'), '/a');
  });

  it('pathWithNamespace keeps the slash of a sequential prefix', () => {
    assert.equal(pathWithNamespace('app', '/', { sequential: true }), '/app/');
    assert.equal(pathWithNamespace('app', '/q/', { sequential: true }), '/app/q/');
  });

  it('pathWithoutNamespace is the inverse', () => {
    for (const path of ['/', '/a', '/a/b']) {
      assert.equal(pathWithoutNamespace('app', pathWithNamespace('app', path)), path);
    }
    assert.equal(pathWithoutNamespace(undefined, '/app/a'), '/app/a');
  });

  it('pathWithoutNamespace leaves paths outside the namespace alone, comparing whole names', () => {
    assert.equal(pathWithoutNamespace('app', '/other/a'), '/other/a');
    assert.equal(pathWithoutNamespace('app', '/application/a'), '/application/a');
  });

  it('validateNamespace accepts relative paths and no namespace', () => {
    for (const namespace of [undefined, '', 'app', 'app/v2', 'my.app'])
      validateNamespace(namespace);
  });

  it('validateNamespace rejects what would make an invalid path, saying why', () => {
    assert.throws(
      () => validateNamespace('/app'),
      (err: unknown) =>
        (err as Error).message ===
        `INVALID_ARGUMENT: namespace "/app" must not start with "/" (write 'app', not '/app')`,
    );
    assert.throws(
      () => validateNamespace('a//b'),
      (err: unknown) =>
        (err as Error).message ===
        'INVALID_ARGUMENT: namespace "a//b" is not valid as "/a//b": empty node name ("//") at index 3',
    );
    for (const namespace of ['app/', '..', 'a\u0001', 42]) {
      assert.throws(() => validateNamespace(namespace), isInvalidArgument);
    }
  });
});
