import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Subject } from 'rxjs';

import {
  GuaranteedDeleteQueue,
  guaranteedDeleteQueueFor,
} from '../../src/client/guaranteed-delete-queue.js';
import type { UnhandledError } from '../../src/client/client-context.js';
import { isConnectionLoss, isNoNode } from '../../src/errors/predicates.js';
import { ZooKeeperErrorCode } from '../../src/errors/zookeeper-error-code.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { BoundedExponentialBackoffRetry } from '../../src/retry/bounded-exponential-backoff-retry.js';
import type { RetryAttempt, RetryPolicy } from '../../src/retry/retry-policy.js';
import type { ConnectionStateChange } from '../../src/state/connection-state.js';
import { fakeSetup, immediateRetry, waitUntil } from './fake-context.js';
import { FakeZooKeeper } from './fake-zookeeper.js';

/** Retries 1-4 ms apart, forever: the default's shape, fast enough for a unit test. */
const FAST_FOREVER = new BoundedExponentialBackoffRetry({
  baseSleepMs: 1,
  maxSleepMs: 4,
  maxRetries: Number.MAX_SAFE_INTEGER,
});

function queueOver(
  zk: FakeZooKeeper,
  retryPolicy: RetryPolicy = FAST_FOREVER,
): {
  queue: GuaranteedDeleteQueue;
  reported: UnhandledError[];
  changes: Subject<ConnectionStateChange>;
  closed: AbortController;
} {
  const reported: UnhandledError[] = [];
  const changes = new Subject<ConnectionStateChange>();
  const closed = new AbortController();
  const queue = new GuaranteedDeleteQueue({
    ops: zk,
    logger: silentLogger,
    report: (error, context) => reported.push({ error, context }),
    connectionStateChanges: changes,
    closedSignal: closed.signal,
    retryPolicy,
  });
  return { queue, reported, changes, closed };
}

describe('FrameworkClient.delete', () => {
  it('quietly ignores a missing node; without it NO_NODE reaches the caller', async () => {
    const { client } = await fakeSetup();
    await client.delete('/missing', { quietly: true });
    await assert.rejects(client.delete('/missing'), isNoNode);
  });

  it('deleteChildren removes the subtree, tolerating children deleted meanwhile', async () => {
    const { zk, client } = await fakeSetup();
    for (const path of ['/t', '/t/a', '/t/a/x', '/t/a/y', '/t/b', '/keep']) zk.seed(path);
    // Someone else deletes /t/a/x between our listing and our delete.
    zk.failNext('delete', {
      when: 'after',
      code: ZooKeeperErrorCode.NO_NODE,
      path: (p) => p === '/t/a/x',
    });
    await client.delete('/t', { deleteChildren: true });
    assert.deepEqual(zk.paths(), ['/', '/keep']);
  });

  it('without deleteChildren a node with children is NOT_EMPTY', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/p');
    zk.seed('/p/c');
    await assert.rejects(client.delete('/p'), { code: 'NOT_EMPTY' });
  });

  it('a version mismatch is BAD_VERSION', async () => {
    const { zk, client } = await fakeSetup();
    zk.seed('/v');
    await assert.rejects(client.delete('/v', { version: 3 }), { code: 'BAD_VERSION' });
    await client.delete('/v', { version: 0 });
    assert.equal(zk.has('/v'), false);
  });

  it('guaranteed: the caller gets the error and the delete completes in the background', async () => {
    const { zk, client, context } = await fakeSetup({ retryPolicy: immediateRetry(1) });
    zk.seed('/g');
    zk.failNext('delete', { times: 2 });
    await assert.rejects(client.delete('/g', { guaranteed: true }), isConnectionLoss);
    await guaranteedDeleteQueueFor(context).whenIdle();
    assert.equal(zk.has('/g'), false);
  });

  it('guaranteed: retried on RECONNECTED after background failures', async () => {
    const { zk, client, context, emitState } = await fakeSetup({
      retryPolicy: immediateRetry(0),
    });
    zk.seed('/g');
    // The foreground attempt and the first background try fail; the next try waits for the
    // 1 s backoff, or a reconnect, whichever comes first.
    zk.failNext('delete', { times: 2 });
    await assert.rejects(client.delete('/g', { guaranteed: true }), isConnectionLoss);
    const queue = guaranteedDeleteQueueFor(context);
    await waitUntil(() => zk.pendingInjections === 0);
    assert.equal(queue.size, 1);
    emitState('RECONNECTED');
    await queue.whenIdle();
    assert.equal(zk.has('/g'), false);
    assert.equal(zk.callsOf('delete').length, 3);
  });

  it('guaranteed is not queued for errors retrying cannot fix', async () => {
    const { zk, client, context } = await fakeSetup();
    zk.seed('/v');
    await assert.rejects(client.delete('/v', { version: 9, guaranteed: true }), {
      code: 'BAD_VERSION',
    });
    assert.equal(guaranteedDeleteQueueFor(context).size, 0);
  });
});

describe('GuaranteedDeleteQueue', () => {
  it('retries with backoff until the delete succeeds', async () => {
    const zk = new FakeZooKeeper();
    zk.seed('/x');
    zk.failNext('delete', { times: 3 });
    const { queue, reported } = queueOver(zk);
    queue.add({ kind: 'delete', path: '/x', version: -1, deleteChildren: false });
    await queue.whenIdle();
    assert.equal(zk.has('/x'), false);
    assert.equal(zk.callsOf('delete').length, 4);
    assert.deepEqual(reported, []);
  });

  it('asks its retry policy, counting failures, and reports the last error when it stops', async () => {
    const zk = new FakeZooKeeper();
    zk.seed('/x');
    zk.failNext('delete', { times: 3 });
    const asked: RetryAttempt[] = [];
    const { queue, reported } = queueOver(zk, {
      nextDelayMs: (attempt) => {
        asked.push(attempt);
        return attempt.retryCount < 1 ? 1 : undefined;
      },
    });
    queue.add({ kind: 'delete', path: '/x', version: -1, deleteChildren: false });
    await queue.whenIdle();
    assert.deepEqual(
      asked.map((each) => each.retryCount),
      [0, 1],
    );
    assert.equal(zk.callsOf('delete').length, 2);
    assert.equal(zk.has('/x'), true);
    assert.equal(reported.length, 1);
    assert.ok(isConnectionLoss(reported[0]?.error));
    assert.equal(queue.size, 0);
  });

  it('counts NO_NODE as success', async () => {
    const zk = new FakeZooKeeper();
    const { queue, reported } = queueOver(zk);
    queue.add({ kind: 'delete', path: '/gone', version: -1, deleteChildren: false });
    await queue.whenIdle();
    assert.deepEqual(reported, []);
  });

  it('reports an error retrying cannot fix and drops the task', async () => {
    const zk = new FakeZooKeeper();
    zk.seed('/x');
    zk.failNext('delete', { code: ZooKeeperErrorCode.NO_AUTH });
    const { queue, reported } = queueOver(zk);
    queue.add({ kind: 'delete', path: '/x', version: -1, deleteChildren: false });
    await queue.whenIdle();
    assert.equal(reported.length, 1);
    assert.equal(reported[0]?.context, 'guaranteed delete /x');
    assert.equal((reported[0]?.error as { code?: string }).code, 'NO_AUTH');
  });

  it('deletes a subtree when the task says deleteChildren', async () => {
    const zk = new FakeZooKeeper();
    for (const path of ['/t', '/t/a', '/t/a/b']) zk.seed(path);
    const { queue } = queueOver(zk);
    queue.add({ kind: 'delete', path: '/t', version: -1, deleteChildren: true });
    await queue.whenIdle();
    assert.deepEqual(zk.paths(), ['/']);
  });

  it('finds and deletes the node of a protected create that gave up', async () => {
    const zk = new FakeZooKeeper();
    const uuid = '53345f98-9423-4e0c-a7b5-9f819e3ec2e1';
    zk.seed('/locks');
    zk.seed(`/locks/_c_${uuid}-lock-0000000000`);
    zk.seed('/locks/_c_00000000-0000-4000-8000-000000000000-lock-0000000001');
    const { queue } = queueOver(zk);
    queue.add({ kind: 'protected', parentPath: '/locks', uuid });
    await queue.whenIdle();
    assert.deepEqual(zk.childrenOf('/locks'), [
      '_c_00000000-0000-4000-8000-000000000000-lock-0000000001',
    ]);
  });

  it('keeps one task per path and drops everything on close', async () => {
    const zk = new FakeZooKeeper();
    zk.seed('/x');
    zk.failNext('delete', { times: 100 });
    const { queue, closed, reported } = queueOver(zk);
    queue.add({ kind: 'delete', path: '/x', version: -1, deleteChildren: false });
    queue.add({ kind: 'delete', path: '/x', version: -1, deleteChildren: false });
    assert.equal(queue.size, 1);
    const idle = queue.whenIdle();
    closed.abort();
    await idle;
    assert.equal(queue.size, 0);
    queue.add({ kind: 'delete', path: '/y', version: -1, deleteChildren: false });
    assert.equal(queue.size, 0, 'nothing is queued after close');
    assert.deepEqual(reported, []);
  });
});
