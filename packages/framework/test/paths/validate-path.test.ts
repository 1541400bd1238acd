import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { isInvalidArgument } from '../../src/errors/predicates.js';
import { MAX_PATH_BYTES, validatePath } from '../../src/paths/validate-path.js';
import type { ValidatePathOptions } from '../../src/paths/validate-path.js';

function rejects(path: unknown, message: string, options?: ValidatePathOptions): void {
  assert.throws(
    () => validatePath(path, options),
    (err: unknown) => isInvalidArgument(err) && (err as Error).message === message,
  );
}

describe('validatePath', () => {
  it('accepts valid paths, including names ZooKeeper allows that look odd', () => {
    for (const path of ['/', '/a', '/a/b/c', '/a/...', '/.a', '/a.', '/a/b.c', '/é/日本', '/a b']) {
      validatePath(path);
    }
  });

  it('rejects a value that is not a string', () => {
    rejects(undefined, 'INVALID_ARGUMENT: path must be a string; got undefined');
    rejects(42, 'INVALID_ARGUMENT: path must be a string; got 42');
    rejects(null, 'INVALID_ARGUMENT: path must be a string; got null');
  });

  it('rejects the empty path', () => {
    rejects('', 'INVALID_ARGUMENT: "" - path must not be empty');
  });

  it('rejects a relative path', () => {
    rejects(
      'a/b',
      'INVALID_ARGUMENT: a/b - path must start with "/" (ZooKeeper has no relative paths)',
    );
  });

  it('rejects a trailing slash except on the root', () => {
    rejects('/a/', 'INVALID_ARGUMENT: /a/ - path must not end with "/"');
  });

  it('rejects an empty node name', () => {
    rejects('//a', 'INVALID_ARGUMENT: //a - empty node name ("//") at index 1');
    rejects('/a//b', 'INVALID_ARGUMENT: /a//b - empty node name ("//") at index 3');
  });

  it('rejects "." and ".." as node names', () => {
    rejects('/.', 'INVALID_ARGUMENT: /. - "." is not allowed as a node name (index 1)');
    rejects('/a/./b', 'INVALID_ARGUMENT: /a/./b - "." is not allowed as a node name (index 3)');
    rejects('/a/..', 'INVALID_ARGUMENT: /a/.. - ".." is not allowed as a node name (index 3)');
    rejects('/../b', 'INVALID_ARGUMENT: /../b - ".." is not allowed as a node name (index 1)');
  });

  it('rejects the null character', () => {
    rejects('/a\u0000b', 'INVALID_ARGUMENT: "/a\\u0000b" - null character at index 2');
  });

  it('rejects every character range ZooKeeper PathUtils rejects, at both ends of each range', () => {
    const ranges: ReadonlyArray<readonly [number, number]> = [
      [0x0001, 0x001f],
      [0x007f, 0x009f],
      [0xd800, 0xf8ff],
      [0xfff0, 0xffff],
    ];
    for (const [low, high] of ranges) {
      for (const c of [low, high]) {
        const path = `/a${String.fromCharCode(c)}`;
        assert.throws(
          () => validatePath(path),
          (err: unknown) =>
            isInvalidArgument(err) &&
            (err as Error).message.endsWith(
              `character U+${c.toString(16).toUpperCase().padStart(4, '0')} at index 2 is not allowed by ZooKeeper`,
            ),
        );
      }
    }
    // Just outside the ranges is fine.
    for (const c of [0x0020, 0x007e, 0x00a0, 0xd7ff, 0xf900, 0xffef]) {
      validatePath(`/a${String.fromCharCode(c)}`);
    }
  });

  it('rejects characters outside the Basic Multilingual Plane, as ZooKeeper does', () => {
    rejects(
      '/a😀',
      'INVALID_ARGUMENT: /a😀 - character U+1F600 at index 2 is not allowed by ZooKeeper',
    );
  });

  it('rejects the root when allowRoot is false', () => {
    validatePath('/', { allowRoot: true });
    rejects('/', 'INVALID_ARGUMENT: / - the root "/" is not allowed here; name a node below it', {
      allowRoot: false,
    });
  });

  it('lets a sequential prefix end in "/" or "." because the server appends digits', () => {
    for (const path of ['/a/', '/a/.', '/a/..', '/', '/a/lock-']) {
      validatePath(path, { sequential: true, allowRoot: false });
    }
    rejects('/a//', 'INVALID_ARGUMENT: /a// - empty node name ("//") at index 3', {
      sequential: true,
    });
  });

  it(`rejects paths longer than ${MAX_PATH_BYTES} UTF-8 bytes`, () => {
    const longest = `/${'a'.repeat(MAX_PATH_BYTES - 1)}`;
    validatePath(longest);
    assert.throws(
      () => validatePath(`${longest}a`),
      (err: unknown) =>
        isInvalidArgument(err) &&
        (err as Error).message.endsWith(`path is 4097 bytes in UTF-8; the limit is 4096 bytes`),
    );
    // Counted in bytes: "é" is two.
    assert.throws(() => validatePath(`/${'é'.repeat(2048)}`), isInvalidArgument);
    // Too long to skip the count (3 bytes a unit at most), short enough in bytes.
    validatePath(`/${'é'.repeat(1400)}`);
    // A sequential path leaves room for the 10-digit suffix.
    assert.throws(
      () => validatePath(`/${'a'.repeat(MAX_PATH_BYTES - 10)}`, { sequential: true }),
      (err: unknown) =>
        (err as Error).message.endsWith(
          'path is 4097 bytes in UTF-8 with its sequence suffix; the limit is 4096 bytes',
        ),
    );
  });

  it('shortens a very long path in the message but keeps it whole on the error', () => {
    const path = `/${'a'.repeat(5000)}`;
    try {
      validatePath(path);
      assert.fail('expected a throw');
    } catch (err) {
      assert.equal((err as { path?: string }).path, path);
      assert.match(
        (err as Error).message,
        /^INVALID_ARGUMENT: \/a{199}\.\.\. \(5001 characters\) - path is 5001 bytes/,
      );
    }
  });

  it('puts the offending path on the error', () => {
    try {
      validatePath('/a//b');
      assert.fail('expected a throw');
    } catch (err) {
      assert.equal((err as { path?: string }).path, '/a//b');
    }
  });
});
