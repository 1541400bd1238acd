import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCache, diffViews } from './cache-checker.js';

describe('checkCache', () => {
  it('accepts equal views in any order', () => {
    const result = checkCache(
      [
        { name: 'b', data: 'y', version: 2 },
        { name: 'a', data: 'x', version: 0 },
      ],
      [
        { name: 'a', data: 'x', version: 0 },
        { name: 'b', data: 'y', version: 2 },
      ],
      10,
    );
    assert.deepEqual(result.violations, []);
  });

  it('names a missing, an extra and a stale child', () => {
    const diffs = diffViews(
      [
        { name: 'gone', data: '', version: 0 },
        { name: 'old', data: 'v1', version: 1 },
      ],
      [
        { name: 'new', data: '', version: 0 },
        { name: 'old', data: 'v2', version: 2 },
      ],
    );
    assert.equal(diffs.length, 3);
    assert.match(diffs.join('\n'), /in the cache but not on the server: gone/);
    assert.match(diffs.join('\n'), /missing from the cache: new/);
    assert.match(diffs.join('\n'), /stale in the cache: old cached v1/);
  });

  it('fails when the cache never reported, or differs', () => {
    assert.equal(checkCache(undefined, [], 0).violations.length, 1);
    const result = checkCache([], [{ name: 'a', data: '', version: 0 }], 1);
    assert.equal(result.violations.length, 1);
    assert.match(result.violations[0]?.message ?? '', /did not converge/);
  });
});
