// DistributedAtomicLong between Node and Java Curator 5.4 on one path: the same 8 bytes, the
// same answers for the corner cases, and increments split across both languages lose nothing.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type FrameworkClient, RetryNTimes, RetryOneTime } from '@zkrecipes/framework';
import { compileJavaPeer, JavaPeer, TestingServer, uniquePath } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import { DistributedAtomicLong } from '../src/index.js';

// dist/test/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorAtomicPeer.java', import.meta.url).pathname;

describe('DistributedAtomicLong with Java Curator 5.4', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let clients: FrameworkClient[] = [];
  before(async () => {
    server = await TestingServer.start();
    [peer, ...clients] = await Promise.all([
      JavaPeer.start({ source: peerSource, args: [server.connectString], replyTimeoutMs: 60_000 }),
      connect(server.connectString),
      connect(server.connectString),
    ]);
  });
  after(async () => {
    await peer.close();
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
    rmSync(await compileJavaPeer(peerSource), { recursive: true, force: true });
  });

  const once = (): RetryOneTime => new RetryOneTime({ sleepBetweenRetryMs: 1 });
  const describeResult = (result: {
    succeeded: boolean;
    preValue: bigint;
    postValue: bigint;
  }): string => `OK ${result.succeeded} ${result.preValue} ${result.postValue}`;

  it('each side reads what the other wrote, extremes included', async () => {
    const path = uniquePath('bytes');
    const counter = new DistributedAtomicLong(clients[0]!, path, once());
    assert.equal(await peer.request(`dal-force ${path} -5`), 'OK');
    assert.equal(
      Buffer.from((await clients[0]!.getData(path)).data).toString('hex'),
      'fffffffffffffffb',
    );
    assert.equal((await counter.get()).preValue, -5n);
    await counter.forceSet(2n ** 63n - 1n);
    assert.equal(
      await peer.request(`dal-get ${path}`),
      'OK true 9223372036854775807 9223372036854775807',
    );
    // Java wraps the increment past the maximum; so do we.
    assert.equal(
      await peer.request(`dal-add ${path} 1`),
      'OK true 9223372036854775807 -9223372036854775808',
    );
    assert.equal(
      describeResult(await counter.add(-1)),
      'OK true -9223372036854775808 9223372036854775807',
    );
  });

  it('gives the answers Curator gives: compareAndSet on a missing node (expecting 0) and a failed one', async () => {
    const javaPath = uniquePath('java-corner');
    const nodePath = uniquePath('node-corner');
    const counter = new DistributedAtomicLong(clients[0]!, nodePath, once());
    assert.equal(await peer.request(`dal-cas ${javaPath} 0 1`), 'OK false 0 0');
    assert.equal(describeResult(await counter.compareAndSet(0, 1)), 'OK false 0 0');
    assert.equal(await clients[0]!.exists(javaPath), null);
    assert.equal(await clients[0]!.exists(nodePath), null);
    assert.equal(await peer.request(`dal-get ${javaPath}`), 'OK true 0 0');
    assert.equal(describeResult(await counter.get()), 'OK true 0 0');
    assert.equal(await peer.request(`dal-init ${javaPath} 6`), 'OK true');
    assert.equal(await counter.initialize(6), true);
    assert.equal(await peer.request(`dal-init ${javaPath} 7`), 'OK false');
    assert.equal(await counter.initialize(7), false);
    assert.equal(await peer.request(`dal-cas ${javaPath} 5 9`), 'OK false 6 0');
    assert.equal(describeResult(await counter.compareAndSet(5, 9)), 'OK false 6 0');
    assert.equal(await peer.request(`dal-try ${javaPath} 10`), 'OK true 6 10');
    assert.equal(describeResult(await counter.trySet(10)), 'OK true 6 10');
  });

  it('1,000 optimistic increments, 500 from Java and 2 x 250 from Node at once, end at exactly 1,000', async () => {
    const path = uniquePath('thousand');
    const policy = new RetryNTimes({ n: 1000, sleepBetweenRetriesMs: 1 });
    assert.equal(await peer.request(`dal-incr ${path} 500 -`), 'OK');
    const nodeResults = await Promise.all(
      clients.map(async (client) => {
        const counter = new DistributedAtomicLong(client, path, policy);
        let succeeded = 0;
        let retries = 0;
        for (let i = 0; i < 250; i++) {
          const result = await counter.increment();
          if (result.succeeded) succeeded += 1;
          retries += result.stats.optimisticTries - 1;
        }
        return { succeeded, retries };
      }),
    );
    assert.equal(
      await peer.expectLine(/^EVENT (dal-incr-done|error)/),
      'EVENT dal-incr-done 500 0',
    );
    assert.deepEqual(
      nodeResults.map((each) => each.succeeded),
      [250, 250],
    );
    assert.equal(await peer.request(`dal-get ${path}`), 'OK true 1000 1000');
    assert.equal(
      (await new DistributedAtomicLong(clients[0]!, path, once()).get()).preValue,
      1000n,
    );
    assert.ok(
      nodeResults.some((each) => each.retries > 0),
      'the increments raced',
    );
  });

  it('500 increments promoted to one Curator mutex, 250 from Java and 2 x 125 from Node, end at exactly 500', async () => {
    const path = uniquePath('promoted');
    const lockPath = `${path}-lock`;
    assert.equal(await peer.request(`dal-incr ${path} 250 ${lockPath}`), 'OK');
    let promoted = 0;
    const succeeded = await Promise.all(
      clients.map(async (client) => {
        const counter = new DistributedAtomicLong(
          client,
          path,
          new RetryNTimes({ n: 3, sleepBetweenRetriesMs: 1 }),
          {
            promotedToLock: {
              lockPath,
              retryPolicy: new RetryNTimes({ n: 1000, sleepBetweenRetriesMs: 1 }),
            },
          },
        );
        let count = 0;
        for (let i = 0; i < 125; i++) {
          const result = await counter.increment();
          if (result.succeeded) count += 1;
          promoted += result.stats.promotedLockTries;
        }
        return count;
      }),
    );
    assert.equal(
      await peer.expectLine(/^EVENT (dal-incr-done|error)/),
      'EVENT dal-incr-done 250 0',
    );
    assert.deepEqual(succeeded, [125, 125]);
    assert.equal(await peer.request(`dal-get ${path}`), 'OK true 500 500');
    assert.deepEqual(await clients[0]!.getChildren(lockPath), []);
    // Reported, not asserted: whether a try lost often enough to take the lock depends on timing.
    console.log(`promoted lock tries on the Node side: ${promoted}`);
  });
});
