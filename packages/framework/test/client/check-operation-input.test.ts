import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { op } from '../../src/client/transaction-op.js';
import type { TransactionOp } from '../../src/client/transaction-op.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { isClosed, isInvalidArgument } from '../../src/errors/predicates.js';
import { MAX_NODE_DATA_BYTES } from '../../src/paths/validate-data.js';
import type { CreateMode } from '../../src/zk/zookeeper-types.js';
import { fakeSetup } from './fake-context.js';

/** Asserts the call fails with INVALID_ARGUMENT whose message matches, and nothing was sent. */
async function rejectsBeforeSending(
  call: (client: FrameworkClient) => Promise<unknown>,
  message: RegExp,
): Promise<void> {
  const { zk, client } = await fakeSetup({ namespace: 'app' });
  await assert.rejects(call(client), (error: unknown) => {
    assert.ok(isInvalidArgument(error), `expected INVALID_ARGUMENT, got ${String(error)}`);
    assert.match((error as Error).message, message);
    return true;
  });
  assert.deepEqual(zk.calls, [], 'nothing was sent');
}

// JS callers can pass anything; these casts reach the runtime checks TypeScript would stop.
const anyMode = (mode: string): CreateMode => mode as CreateMode;

describe('FrameworkClient input validation (before anything is sent)', () => {
  it('rejects a relative path', () =>
    rejectsBeforeSending((c) => c.create('a/b'), /must start with "\/"/));

  it('rejects a trailing slash', () =>
    rejectsBeforeSending((c) => c.getData('/a/'), /must not end with "\/"/));

  it('rejects ".." as a node name', () =>
    rejectsBeforeSending((c) => c.delete('/a/../b'), /"\.\." is not allowed/));

  it('rejects data over the limit', () =>
    rejectsBeforeSending(
      (c) => c.setData('/a', Buffer.alloc(MAX_NODE_DATA_BYTES + 1)),
      /the limit is 1043455 bytes/,
    ));

  it('rejects data that is not bytes', () =>
    rejectsBeforeSending(
      (c) => c.create('/a', { data: 'text' as unknown as Buffer }),
      /data must be a Buffer or Uint8Array/,
    ));

  it('rejects an unknown mode', () =>
    rejectsBeforeSending(
      (c) => c.create('/a', { mode: anyMode('EPHEMERAL_PERSISTENT') }),
      /mode must be one of PERSISTENT, EPHEMERAL/,
    ));

  for (const mode of ['PERSISTENT_WITH_TTL', 'PERSISTENT_SEQUENTIAL_WITH_TTL'] as const) {
    it(`rejects ${mode} without ttlMs`, () =>
      rejectsBeforeSending((c) => c.create('/a', { mode }), /needs ttlMs, a whole number/));

    for (const ttlMs of [0, -1, 1.5, 0x100_0000_0000, Number.NaN]) {
      it(`rejects ${mode} with ttlMs ${ttlMs} (outside 1..0xFFFFFFFFFF)`, () =>
        rejectsBeforeSending(
          (c) => c.create('/a', { mode, ttlMs }),
          /from 1 to 1099511627775 \(0xFFFFFFFFFF\)/,
        ));
    }
  }

  for (const mode of ['PERSISTENT', 'EPHEMERAL', 'CONTAINER', undefined] as const) {
    it(`rejects ttlMs with mode ${String(mode)}`, () =>
      rejectsBeforeSending(
        (c) => c.create('/a', { mode, ttlMs: 1000 }),
        /ttlMs is only for PERSISTENT_WITH_TTL and PERSISTENT_SEQUENTIAL_WITH_TTL/,
      ));
  }

  it('rejects protection with mode CONTAINER', () =>
    rejectsBeforeSending(
      (c) => c.create('/a', { mode: 'CONTAINER', protection: true }),
      /protection is not available with mode CONTAINER/,
    ));

  it('rejects a containerParents that is not a boolean', () =>
    rejectsBeforeSending(
      (c) =>
        c.create('/a/b', { createParents: true, containerParents: 'no' as unknown as boolean }),
      /containerParents must be true or false/,
    ));

  it('rejects a bad path or signal on sync, getEphemerals and getAllChildrenNumber', async () => {
    await rejectsBeforeSending((c) => c.sync('a'), /must start with "\/"/);
    await rejectsBeforeSending((c) => c.getEphemerals('/a/'), /must not end with "\/"/);
    await rejectsBeforeSending(
      (c) => c.getAllChildrenNumber('/a', { signal: 'x' as unknown as AbortSignal }),
      /signal/,
    );
  });

  it('rejects a version below -1', () =>
    rejectsBeforeSending((c) => c.delete('/a', { version: -2 }), /version must be a whole number/));

  it('rejects a fractional version on setData', () =>
    rejectsBeforeSending(
      (c) => c.setData('/a', Buffer.alloc(0), { version: 1.5 }),
      /version must be a whole number/,
    ));

  it('rejects creating or deleting the root', async () => {
    await rejectsBeforeSending((c) => c.create('/'), /root "\/" is not allowed/);
    await rejectsBeforeSending((c) => c.delete('/'), /root "\/" is not allowed/);
  });

  it('rejects a non-boolean flag', () =>
    rejectsBeforeSending(
      (c) => c.create('/a', { createParents: 'yes' as unknown as boolean }),
      /createParents must be true or false/,
    ));

  it('rejects an empty ACL', () =>
    rejectsBeforeSending((c) => c.create('/a', { acl: [] }), /acl must not be empty/));

  it('rejects a watch that is not a function', () =>
    rejectsBeforeSending(
      (c) => c.exists('/a', { watch: 'no' as unknown as () => void }),
      /watch must be a function/,
    ));

  it('rejects a bad timeout for blockUntilConnected', () =>
    rejectsBeforeSending(
      (c) => c.blockUntilConnected({ timeoutMs: -1 }),
      /timeoutMs must be a finite number >= 0/,
    ));

  it('rejects a bad transaction op and names its index', () =>
    rejectsBeforeSending(
      (c) => c.transaction([op.create('/ok'), op.check('/fine'), op.delete('relative')]),
      /op 2 \(delete\): path must start with "\/"/,
    ));

  it('rejects protection inside a transaction', () =>
    rejectsBeforeSending(
      (c) => c.transaction([{ ...op.create('/a'), protection: true } as unknown as TransactionOp]),
      /op 0 \(create\): protection is not available inside a transaction/,
    ));

  it('rejects an unknown transaction op type', () =>
    rejectsBeforeSending(
      (c) => c.transaction([{ type: 'sync', path: '/a' } as unknown as TransactionOp]),
      /op type must be create, delete, setData or check/,
    ));

  it('rejects operations before start()', async () => {
    const { zk, client } = await fakeSetup({ start: false });
    await assert.rejects(client.getData('/a'), /call start\(\) first/);
    assert.deepEqual(zk.calls, []);
  });

  it('rejects every operation with ClosedError after close(), sending nothing', async () => {
    const { zk, client } = await fakeSetup();
    await client.close();
    const calls: Promise<unknown>[] = [
      client.create('/a'),
      client.delete('/a'),
      client.exists('/a'),
      client.getData('/a'),
      client.setData('/a', Buffer.alloc(0)),
      client.getChildren('/a'),
      client.getAcl('/a'),
      client.setAcl('/a', [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }]),
      client.transaction([op.check('/a')]),
    ];
    for (const call of calls) await assert.rejects(call, isClosed);
    assert.deepEqual(zk.calls, []);
  });
});
