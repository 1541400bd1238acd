import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FaultProxy, mntr, TestingServer, uniquePath } from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { quickClient } from './fixtures/quick-client.js';
import { NoNodeError } from '../../src/errors/zookeeper-error-classes.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';

async function packetsReceived(server: TestingServer): Promise<number> {
  return (await mntr(server.host, server.port)).get('packets_received') ?? Number.NaN;
}

describe('unwatched reads made together go out as one multiRead', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await quickClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('20 reads in one go are one request; each gets its own data and the same Stat a lone read gets', async () => {
    const root = uniquePath('batch');
    const paths = Array.from({ length: 20 }, (_, i) => `${root}/n${i}`);
    for (const [i, path] of paths.entries()) {
      await client.create(path, { data: Buffer.from(`data ${i}`), createParents: true });
    }
    await client.setData(paths[3]!, Buffer.from('changed'));
    const before = await packetsReceived(server);
    const reads = await Promise.all(paths.map((path) => client.getData(path)));
    const after = await packetsReceived(server);
    // One multiRead (plus the first mntr's own accounting, if any), not 20 getData requests.
    assert.ok(after - before <= 2, `${after - before} packets for 20 reads`);
    assert.deepEqual(
      reads.map((read) => read.data.toString()),
      paths.map((_, i) => (i === 3 ? 'changed' : `data ${i}`)),
    );
    const alone = await client.getData(paths[3]!);
    assert.deepEqual(reads[3]!.stat, alone.stat);
    assert.equal(alone.stat.version, 1);
  });

  it('a missing node fails only its own read, with the typed error and its path', async () => {
    const root = uniquePath('partial');
    await client.create(`${root}/here`, { data: Buffer.from('x'), createParents: true });
    const [here, missing] = await Promise.allSettled([
      client.getData(`${root}/here`),
      client.getData(`${root}/missing`),
    ]);
    assert.equal(here.status === 'fulfilled' && here.value.data.toString(), 'x');
    assert.ok(missing.status === 'rejected' && missing.reason instanceof NoNodeError);
    assert.equal(missing.reason.path, `${root}/missing`);
  });

  it('under a chroot and a namespace, with large nodes (a reply over many TCP reads) and a watch event in between', async () => {
    const chroot = uniquePath('chroot');
    await client.create(`${chroot}/app`, { createParents: true });
    const chrooted = await quickClient(server.connectString + chroot);
    try {
      const view = chrooted.usingNamespace('app');
      const big = Array.from({ length: 4 }, (_, i) => Buffer.alloc(400_000, i + 1));
      for (const [i, data] of big.entries()) await view.create(`/big${i}`, { data });
      await view.create('/watched');
      let event: WatchedEvent | undefined;
      await view.getData('/watched', { watch: (e) => (event = e) });
      const reading = Promise.all(big.map((_, i) => view.getData(`/big${i}`)));
      await client.setData(`${chroot}/app/watched`, Buffer.from('poke'));
      const reads = await reading;
      reads.forEach((read, i) => assert.ok(read.data.equals(big[i]!), `big${i} intact`));
      await view.exists('/watched'); // a round trip: the event came before its reply
      assert.deepEqual(event, { type: 'NODE_DATA_CHANGED', path: '/watched' });
    } finally {
      await chrooted.close();
    }
  });

  it('a batch cut off by a dropped connection is retried after the reconnect', async () => {
    const root = uniquePath('dropped');
    const paths = Array.from({ length: 10 }, (_, i) => `${root}/n${i}`);
    for (const path of paths) {
      await client.create(path, { data: Buffer.from(path), createParents: true });
    }
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const cut = await quickClient(proxy.connectString);
    try {
      proxy.blackhole();
      const reading = Promise.all(paths.map((path) => cut.getData(path)));
      proxy.drop();
      proxy.heal();
      const reads = await reading;
      assert.deepEqual(
        reads.map((read) => read.data.toString()),
        paths,
      );
    } finally {
      await cut.close();
    }
  });
});
