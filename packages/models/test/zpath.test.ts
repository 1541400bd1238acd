import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '@zkrecipes/framework';
import { ZPath, type PathParams } from '../src/index.js';

describe('ZPath', () => {
  it('resolves named parameters, matches paths back, and names its literal prefix', () => {
    const path = ZPath.parse('/app/users/{id}/posts/{post}');
    assert.deepEqual(path.parameterNames, ['id', 'post']);
    assert.equal(path.resolve({ id: '42', post: 'p-1' }), '/app/users/42/posts/p-1');
    assert.deepEqual(path.match('/app/users/42/posts/p-1'), { id: '42', post: 'p-1' });
    assert.equal(path.match('/app/users/42'), undefined);
    assert.equal(path.match('/app/groups/42/posts/p'), undefined);
    assert.equal(path.literalPrefix, '/app/users');
    assert.equal(ZPath.parse('/{tenant}/x').literalPrefix, '/');
    const fixed = ZPath.parse('/config');
    assert.ok(fixed.isResolved);
    assert.equal(fixed.resolve({}), '/config');
    assert.equal(fixed.literalPrefix, '/config');
  });

  it('types the parameters from the template', () => {
    const params: PathParams<'/users/{id}/x/{y}'> = { id: 'a', y: 'b' };
    // @ts-expect-error: 'y' is missing
    const missing: PathParams<'/users/{id}/x/{y}'> = { id: 'a' };
    // @ts-expect-error: no parameter 'z'
    const unknown: PathParams<'/users/{id}'> = { id: 'a', z: 'b' };
    assert.deepEqual([params, missing, unknown].length, 3);
  });

  it('refuses missing, unknown and invalid parameters, and bad templates', () => {
    const path = ZPath.parse('/users/{id}');
    const bad: unknown[] = [
      {},
      { id: 'a', other: 'b' },
      { id: '' },
      { id: 'a/b' },
      { id: '.' },
      { id: '..' },
      { id: 'a\u0000' },
      { id: 5 },
      null,
    ];
    for (const params of bad) {
      assert.throws(
        () => path.resolve(params as PathParams<'/users/{id}'>),
        InvalidArgumentError,
        String(params),
      );
    }
    for (const template of ['users/{id}', '/a/{id}/{id}', '/a/x{id}', '/a/{1d}', '/a/', '/a//b']) {
      assert.throws(() => ZPath.parse(template), InvalidArgumentError, template);
    }
  });
});
