import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { aclProviderFrom } from '../../src/client/acl-provider.js';
import { TransactionFailedError } from '../../src/errors/transaction-failed-error.js';
import { op } from '../../src/client/transaction-op.js';
import { isBadVersion } from '../../src/errors/predicates.js';
import type { Acl } from '../../src/zk/zookeeper-types.js';
import { fakeSetup } from './fake-context.js';

const DIGEST_ACL: readonly Acl[] = [{ perms: 31, id: { scheme: 'digest', id: 'u:hash' } }];

describe('FrameworkClient.transaction', () => {
  it('applies all ops and maps result paths back out of the namespace', async () => {
    const { zk, client } = await fakeSetup({ namespace: 'app' });
    await client.create('/config', { data: Buffer.from('v1') });
    await client.create('/old');
    const results = await client.transaction([
      op.check('/config', { version: 0 }),
      op.setData('/config', Buffer.from('v2'), { version: 0 }),
      op.create('/config/history-', { data: Buffer.from('v1'), mode: 'PERSISTENT_SEQUENTIAL' }),
      op.delete('/old'),
    ]);
    assert.deepEqual(
      results.map((r) => ({ type: r.type, forPath: r.forPath, path: r.path })),
      [
        { type: 'check', forPath: '/config', path: '/config' },
        { type: 'setData', forPath: '/config', path: '/config' },
        { type: 'create', forPath: '/config/history-', path: '/config/history-0000000000' },
        { type: 'delete', forPath: '/old', path: '/old' },
      ],
    );
    const setResult = results[1];
    assert.equal(setResult?.type === 'setData' ? setResult.stat.version : undefined, 1);
    assert.equal(zk.dataOf('/app/config'), 'v2');
    assert.equal(zk.dataOf('/app/config/history-0000000000'), 'v1');
    assert.equal(zk.has('/app/old'), false);
    // One multi on server paths.
    assert.deepEqual(zk.callsOf('multi'), [{ op: 'multi', path: '/app/config' }]);
  });

  it('a failed op rejects with TransactionFailedError naming it, and nothing is applied', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/a', 'x');
    const failure = client.transaction([
      op.create('/b'),
      op.check('/a', { version: 7 }),
      op.delete('/a'),
    ]);
    await assert.rejects(failure, (error: unknown) => {
      assert.ok(error instanceof TransactionFailedError);
      assert.equal(error.failedOpIndex, 1);
      assert.ok(isBadVersion(error));
      assert.deepEqual(
        error.outcomes.map((o) => o.code),
        [undefined, 'BAD_VERSION', 'RUNTIME_INCONSISTENCY'],
      );
      return true;
    });
    assert.equal(zk.has('/b'), false);
    assert.equal(zk.has('/a'), true);
  });

  it('creates get the ACL provider unless the op gives one', async () => {
    const { zk, client } = await fakeSetup({ aclProvider: aclProviderFrom(DIGEST_ACL) });
    const open = [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }];
    await client.transaction([op.create('/p'), op.create('/q', { acl: open })]);
    assert.deepEqual(zk.aclOf('/p'), DIGEST_ACL);
    assert.deepEqual(zk.aclOf('/q'), open);
  });

  it('an empty transaction resolves [] without a request', async () => {
    const { zk, client } = await fakeSetup();
    assert.deepEqual(await client.transaction([]), []);
    assert.deepEqual(zk.calls, []);
  });

  it('validates every op before sending any', async () => {
    const { zk, client } = await fakeSetup();
    await assert.rejects(
      client.transaction([op.create('/fine'), op.setData('/big', Buffer.alloc(2_000_000))]),
      /op 1 \(setData\): data is 2000000 bytes/,
    );
    await assert.rejects(
      client.transaction([op.create('/c'), op.create('/t', { mode: 'PERSISTENT_WITH_TTL' })]),
      /op 1 \(create\): mode PERSISTENT_WITH_TTL needs ttlMs/,
    );
    await assert.rejects(
      client.transaction([op.create('/c', { mode: 'CONTAINER', ttlMs: 5 })]),
      /op 0 \(create\): ttlMs is only for PERSISTENT_WITH_TTL/,
    );
    assert.deepEqual(zk.calls, []);
  });
});
