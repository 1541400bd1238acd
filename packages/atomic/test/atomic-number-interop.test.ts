// DistributedAtomicInteger, CachedAtomicLong and a SharedCount-sized InterProcessSemaphoreV2
// between Node and Java Curator 5.4 on one path: the same 4 bytes, increments and ids split
// across both languages that add up exactly, and a count either side changes.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type FrameworkClient, RetryNTimes, RetryOneTime } from '@zkrecipes/framework';
import { InterProcessSemaphoreV2 } from '@zkrecipes/locks';
import { compileJavaPeer, JavaPeer, TestingServer, timing, uniquePath } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import {
  CachedAtomicLong,
  DistributedAtomicInteger,
  DistributedAtomicLong,
  SharedCount,
} from '../src/index.js';

// dist/test/*.test.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorAtomicPeer.java', import.meta.url).pathname;

describe('DistributedAtomicInteger, CachedAtomicLong and a count-sized semaphore with Java Curator 5.4', () => {
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
  const patient = (): RetryNTimes => new RetryNTimes({ n: 1000, sleepBetweenRetriesMs: 1 });

  it('DistributedAtomicInteger: each side reads what the other wrote, wrap-around and failed compareAndSet included', async () => {
    const path = uniquePath('int-bytes');
    const counter = new DistributedAtomicInteger(clients[0]!, path, once());
    assert.equal(await peer.request(`dai-force ${path} -5`), 'OK');
    assert.equal(Buffer.from((await clients[0]!.getData(path)).data).toString('hex'), 'fffffffb');
    assert.equal((await counter.get()).preValue, -5);
    await counter.forceSet(2_147_483_647);
    assert.equal(await peer.request(`dai-add ${path} 1`), 'OK true 2147483647 -2147483648');
    const back = await counter.add(-1);
    assert.deepEqual([back.preValue, back.postValue], [-2_147_483_648, 2_147_483_647]);
    assert.equal(await peer.request(`dai-cas ${path} 5 9`), 'OK false 2147483647 0');
    const failed = await counter.compareAndSet(5, 9);
    assert.deepEqual([failed.succeeded, failed.postValue], [false, 0]);
    // A missing node reads 0 on both sides.
    const missing = uniquePath('int-missing');
    assert.equal(await peer.request(`dai-get ${missing}`), 'OK true 0 0');
    assert.equal(
      (await new DistributedAtomicInteger(clients[0]!, missing, once()).get()).postValue,
      0,
    );
  });

  it('DistributedAtomicInteger: 300 increments from Java and 2 x 150 from Node at once end at exactly 600', async () => {
    const path = uniquePath('int-race');
    assert.equal(await peer.request(`dai-incr ${path} 300`), 'OK');
    const succeeded = await Promise.all(
      clients.map(async (client) => {
        const counter = new DistributedAtomicInteger(client, path, patient());
        let count = 0;
        for (let i = 0; i < 150; i++) if ((await counter.increment()).succeeded) count += 1;
        return count;
      }),
    );
    assert.equal(
      await peer.expectLine(/^EVENT (dai-incr-done|error)/),
      'EVENT dai-incr-done 300 0',
    );
    assert.deepEqual(succeeded, [150, 150]);
    assert.equal(await peer.request(`dai-get ${path}`), 'OK true 600 600');
  });

  it('CachedAtomicLong: Java and two Node caches take 500 ids from one counter at once, none twice, nothing lost', async () => {
    const path = uniquePath('cached');
    // Java: 200 ids in blocks of 10. Node: 150 in blocks of 7 and 150 in blocks of 1.
    assert.equal(await peer.request(`cached-next ${path} 10 200`), 'OK');
    const nodeIds = await Promise.all(
      clients.map(async (client, i) => {
        const cache = new CachedAtomicLong(
          new DistributedAtomicLong(client, path, patient()),
          [7, 1][i]!,
        );
        const ids: bigint[] = [];
        for (let n = 0; n < 150; n++) {
          const id = await cache.next();
          assert.equal(id.succeeded, true);
          ids.push(id.preValue);
        }
        return ids;
      }),
    );
    const done = await peer.expectLine(/^EVENT (cached-done|error)/);
    const [, , failed, list] = done.split(' ');
    assert.equal(failed, '0');
    const javaIds = list!.split(',').map(BigInt);
    assert.equal(javaIds.length, 200);
    const all = [...javaIds, ...nodeIds.flat()];
    assert.equal(new Set(all).size, 500, 'no id handed out twice');
    // Every block was used up: 20 x 10 + 22 x 7 (the last one 4 short) + 150 x 1.
    const total = (await new DistributedAtomicLong(clients[0]!, path, once()).get()).postValue;
    assert.equal(total, 200n + 22n * 7n + 150n);
    assert.ok(all.every((id) => id >= 0n && id < total));
  });

  it("a semaphore sized by a SharedCount: Java's count raises the Node limit, and Java's semaphore on the same count shares it", async () => {
    const path = uniquePath('sem');
    const countPath = `${path}-count`;
    assert.equal(await peer.request(`count jc ${countPath} 1`), 'OK 1');
    await using count = new SharedCount(clients[0]!, countPath, 5);
    await count.start();
    assert.equal(count.getCount(), 1, 'the count Java created');
    const semaphore = new InterProcessSemaphoreV2(clients[0]!, path, count);
    // Java's semaphore, sized by Java's SharedCount, takes the only lease.
    assert.equal(await peer.request(`sem-acquire j1 ${path} jc 5000`), 'OK true');
    assert.equal(await semaphore.acquire(1, 0), undefined, 'full at a count of 1');
    const waiting = semaphore.acquire(1, timing.ms(20_000));
    assert.equal(await peer.request('count-set jc 2'), 'OK');
    const leases = await waiting;
    assert.equal(leases?.length, 1, 'Node got the second lease once Java raised the count');
    // Now full at 2: a second Java lease waits until Node raises the count to 3.
    const javaWaits = peer.request(`sem-acquire j2 ${path} jc ${timing.ms(20_000)}`);
    await count.setCount(3);
    assert.equal(await javaWaits, 'OK true', 'Java followed the count Node set');
    await semaphore.returnAll(leases);
    assert.equal(await peer.request('sem-return j1'), 'OK');
    assert.equal(await peer.request('sem-return j2'), 'OK');
    assert.deepEqual(await semaphore.getParticipantNodes(), []);
  });
});
