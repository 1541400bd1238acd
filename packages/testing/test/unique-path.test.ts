import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uniquePath } from '../src/index.js';

describe('uniquePath', () => {
  it('returns an absolute path with the prefix and random hex', () => {
    assert.match(uniquePath(), /^\/test-[0-9a-f]{12}$/);
    assert.match(uniquePath('locks'), /^\/locks-[0-9a-f]{12}$/);
  });

  it('never repeats', () => {
    const paths = new Set(Array.from({ length: 1000 }, () => uniquePath()));
    assert.equal(paths.size, 1000);
  });

  it('nests a prefix with slashes and ignores leading and trailing ones', () => {
    assert.match(uniquePath('/app/locks/'), /^\/app\/locks-[0-9a-f]{12}$/);
  });

  it('rejects prefixes that would not make a valid path', () => {
    for (const bad of ['', '/', 'a//b', 'a/../b', '.']) {
      assert.throws(() => uniquePath(bad), /invalid prefix/, bad);
    }
  });
});
