// Curator's TestSharedCount scenarios (testSimple, testSimpleVersioned, testMultiClients,
// testMultiClientVersioned, testMultiClientDifferentSeed) against a real server, plus what
// CURATOR-688 is about: freshness by mzxid, so a re-created node (version back to 0) is followed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FrameworkClient, isInvalidArgument } from '@zkrecipes/framework';
import { uniquePath, waitFor } from '@zkrecipes/testing';
import { connect, serverAndTwoClients, type ServerAndTwoClients } from '@zkrecipes/test-support';
import { SharedCount, SharedValue } from '../src/index.js';

describe('SharedCount', () => {
  let setup: ServerAndTwoClients;
  let client: FrameworkClient;
  let other: FrameworkClient;
  before(async () => {
    setup = await serverAndTwoClients();
    ({ client, other } = setup);
  });
  after(() => setup.close());

  it('stores the seed as a 4-byte big-endian int, and an existing node keeps its value (different seeds)', async () => {
    const path = `${uniquePath('seed')}/count`;
    await using first = new SharedCount(client, path, -2);
    await using second = new SharedCount(other, path, 20);
    await first.start();
    await second.start();
    assert.equal(first.getCount(), -2);
    assert.equal(second.getCount(), -2);
    const { data, stat } = await client.getData(path);
    assert.equal(Buffer.from(data).toString('hex'), 'fffffffe');
    assert.equal(stat.version, 0);
    await first.setCount(2_147_483_647);
    assert.equal(Buffer.from((await client.getData(path)).data).toString('hex'), '7fffffff');
  });

  it('counts read with for await: the current count first, a change by another client, the end on close()', async () => {
    const path = uniquePath('iterate');
    const count = new SharedCount(client, path, 5);
    await count.start();
    await using writer = new SharedCount(other, path, 0);
    await writer.start();
    const seen: number[] = [];
    const loop = (async () => {
      for await (const { value } of count.counts) seen.push(value);
      return 'ended';
    })();
    await waitFor(() => seen.length === 1, { message: 'the current count' });
    await writer.setCount(6);
    await waitFor(() => seen.includes(6), { message: 'the change' });
    await count.close();
    assert.equal(await loop, 'ended');
    assert.deepEqual(seen, [5, 6]);
  });

  it('trySetCount three times in a row succeeds each time and the listener hears each change (testSimple)', async () => {
    const path = uniquePath('simple');
    await using count = new SharedCount(client, path, 0);
    await count.start();
    const heard: number[] = [];
    count.on('countChanged', (value) => heard.push(value));
    for (const next of [1, 2, 10]) {
      assert.equal(await count.trySetCount(count.getVersionedValue(), next), true);
    }
    assert.equal(count.getCount(), 10);
    // The writer's own listener fires too: one read per watch event.
    await waitFor(() => heard.includes(10), { message: 'listener heard 10' });
    // Changes made faster than a watch is set again may be heard as one (a cache, not a log).
    assert.ok(
      heard.every((value) => [1, 2, 10].includes(value)),
      `heard ${heard.join(',')}`,
    );
  });

  it('trySetCount compares zxid, bytes and version, and refuses version -1 (testSimpleVersioned)', async () => {
    const path = uniquePath('versioned');
    await using count = new SharedCount(client, path, 0);
    await count.start();
    let current = count.getVersionedValue();
    assert.equal(current.version, 0);
    for (const [next, version] of [
      [1, 1],
      [5, 2],
      [10, 3],
    ] as const) {
      assert.equal(await count.trySetCount(current, next), true);
      current = count.getVersionedValue();
      assert.equal(current.version, version);
      assert.equal(count.getCount(), next);
    }
    const statBefore = (await client.getData(path)).stat;
    // Wrong value, wrong version, wrong zxid: nothing is written.
    assert.equal(await count.trySetCount({ ...current, value: 20 }, 7), false);
    assert.equal(await count.trySetCount({ ...current, version: 10 }, 7), false);
    assert.equal(await count.trySetCount({ ...current, zxid: current.zxid + 1n }, 7), false);
    assert.equal((await client.getData(path)).stat.version, statBefore.version);
    assert.equal(count.getCount(), 10);
    // Changed on the server: refused, and the cache then holds the server's value.
    await other.setData(path, Buffer.from([0, 0, 0, 88]));
    assert.equal(await count.trySetCount(current, 234), false);
    await waitFor(() => count.getCount() === 88, { message: 'cache follows 88' });
    // Version -1 (overflowed, ZOOKEEPER-4743): a typed error before anything is sent.
    const cached = count.getVersionedValue();
    await assert.rejects(count.trySetCount({ ...cached, version: -1 }, 20), isInvalidArgument);
  });

  it('two clients: the one with a stale version loses, then wins with the fresh one (testMultiClientVersioned)', async () => {
    const path = uniquePath('multi-versioned');
    await using count1 = new SharedCount(client, path, 0);
    await using count2 = new SharedCount(other, path, 0);
    await count1.start();
    await count2.start();
    assert.equal(await count1.trySetCount(count1.getVersionedValue(), 10), true);
    await waitFor(() => count2.getCount() === 10);
    assert.equal(await count2.trySetCount(count2.getVersionedValue(), 20), true);
    await waitFor(() => count1.getCount() === 20);
    const heard: number[] = [];
    count1.on('countChanged', (value) => heard.push(value));
    const seen1 = count1.getVersionedValue();
    assert.equal(await count2.trySetCount(count2.getVersionedValue(), 30), true);
    assert.equal(await count1.trySetCount(seen1, 40), false);
    assert.equal(await count1.trySetCount(count1.getVersionedValue(), 40), true);
    await waitFor(() => heard.includes(40), { message: 'count1 heard 40' });
    assert.ok(heard.length >= 2, `heard ${heard.join(',')}`);
    await waitFor(() => count2.getCount() === 40);
  });

  it('five listening clients hear every one of 100 sets, in order (testMultiClients)', async () => {
    const path = uniquePath('multi');
    const clients = await Promise.all(
      Array.from({ length: 5 }, () => connect(setup.server.connectString)),
    );
    const counts = clients.map((each) => new SharedCount(each, path, 10));
    const heard: number[][] = counts.map(() => []);
    try {
      counts.forEach((count, i) => count.on('countChanged', (value) => heard[i]!.push(value)));
      await Promise.all(counts.map((count) => count.start()));
      await using writer = new SharedCount(client, path, 10);
      await writer.start();
      const written: number[] = [];
      for (let i = 0; i < 100; i++) {
        const next = (i * 37) % 100;
        written.push(next);
        await writer.setCount(next);
        await waitFor(() => heard.every((list) => list.length === written.length), {
          message: `all heard set ${i}`,
        });
      }
      for (const list of heard) assert.deepEqual(list, written);
    } finally {
      await Promise.all(counts.map((count) => count.close()));
      await Promise.all(clients.map((each) => each.close()));
    }
  });

  it('follows a deleted and re-created node whose version restarts at 0 (CURATOR-688: fresher by mzxid)', async () => {
    const path = uniquePath('recreated');
    await using count = new SharedCount(client, path, 0);
    await count.start();
    for (let i = 1; i <= 3; i++) await count.setCount(i);
    assert.equal(count.getVersionedValue().version, 3);
    await other.delete(path);
    await other.create(path, { data: Buffer.from([0, 0, 0, 77]) });
    await waitFor(() => count.getCount() === 77, { message: 'cache follows the new node' });
    const fresh = count.getVersionedValue();
    assert.equal(fresh.version, 0);
    assert.equal(await count.trySetCount(fresh, 78), true);
    assert.equal(count.getVersionedValue().version, 1);
  });

  it('SharedValue keeps bytes, and the values stream replays the current value', async () => {
    const path = uniquePath('value');
    await using value = new SharedValue(client, path, Buffer.from('seed'));
    assert.equal(value.getVersionedValue().version, -1);
    await value.start();
    assert.equal(Buffer.from(value.getValue()).toString(), 'seed');
    const seen: string[] = [];
    const subscription = value.values.subscribe((v) => seen.push(Buffer.from(v.value).toString()));
    await value.setValue(Buffer.from('next'));
    assert.equal(await value.trySetValue(value.getVersionedValue(), Buffer.alloc(0)), true);
    subscription.unsubscribe();
    assert.deepEqual(seen.slice(0, 3), ['seed', 'next', '']);
    assert.equal((await client.getData(path)).data.length, 0);
  });
});
