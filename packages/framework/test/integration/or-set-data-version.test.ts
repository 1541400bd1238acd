import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { after, before, describe, it } from 'node:test';
import { FaultProxy, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { BadVersionError } from '../../src/errors/zookeeper-error-classes.js';
import { isInvalidArgument, isOutcomeUnknown } from '../../src/errors/predicates.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ExponentialBackoffRetry } from '../../src/retry/exponential-backoff-retry.js';

describe('create with orSetData: { version }', () => {
  let server: TestingServer;
  let proxy: FaultProxy;
  let observer: FrameworkClient;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    proxy = await FaultProxy.start({ targetPort: server.port });
    observer = createFramework({ connectString: server.connectString, logger: silentLogger });
    client = createFramework({
      connectString: proxy.connectString,
      sessionTimeoutMs: 10_000,
      retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 20, maxRetries: 10 }),
      logger: silentLogger,
    });
    await Promise.all([
      observer.start({ timeoutMs: timing.ms(10_000) }),
      client.start({ timeoutMs: timing.ms(10_000) }),
    ]);
  });
  after(async () => {
    await client.close();
    await observer.close();
    await proxy.close();
    await server.close();
  });

  it('creates a missing node, sets an existing one at that version, and rejects BadVersionError at another', async () => {
    const path = uniquePath('or-set');
    const made = await client.create(path, {
      data: Buffer.from('a'),
      orSetData: { version: 7 },
      stat: true,
    });
    assert.equal(made.stat.version, 0);
    const set = await client.create(path, {
      data: Buffer.from('b'),
      orSetData: { version: 0 },
      stat: true,
    });
    assert.equal(set.path, path);
    assert.equal(set.stat.version, 1);
    assert.equal((await observer.getData(path)).data.toString(), 'b');
    await assert.rejects(
      client.create(path, { data: Buffer.from('c'), orSetData: { version: 0 } }),
      (error) => error instanceof BadVersionError && error.path === path,
    );
    const read = await observer.getData(path);
    assert.equal(read.data.toString(), 'b');
    assert.equal(read.stat.version, 1);
    // -1 is any version, as orSetData: true.
    await client.create(path, { data: Buffer.from('d'), orSetData: { version: -1 } });
    assert.equal((await observer.getData(path)).data.toString(), 'd');
  });

  it('bad orSetData values are InvalidArgumentErrors and nothing is created', async () => {
    const path = uniquePath('or-set-bad');
    for (const orSetData of [{ version: -2 }, { version: 1.5 }, {}, 'yes', 1]) {
      await assert.rejects(
        client.create(path, { orSetData: orSetData as { version: number } }),
        (error) => isInvalidArgument(error),
      );
    }
    assert.equal(await observer.exists(path), null);
  });

  it("the setData's reply lost: the retry's BAD_VERSION is recognised as its own write and the create resolves", async () => {
    const path = uniquePath('or-set-lost');
    await observer.create(path, { data: Buffer.from('theirs') });
    const lost = proxy.loseReply({ ops: ['setData'], pathPrefix: path });
    const created = await client.create(path, {
      data: Buffer.from('ours'),
      orSetData: { version: 0 },
      stat: true,
    });
    assert.equal((await lost).err, 0, 'the server applied the setData');
    const read = await observer.getData(path);
    assert.equal(read.data.toString(), 'ours');
    assert.equal(read.stat.version, 1);
    assert.equal(created.path, path);
    assert.equal(created.stat.mzxid, read.stat.mzxid);
  });

  it('the reply lost and another write came after ours: OutcomeUnknownError, never BAD_VERSION', async () => {
    const path = uniquePath('or-set-lost-race');
    await observer.create(path, { data: Buffer.from('theirs') });
    // The reset comes a second after the lost reply: time for another client to write after us.
    const lost = proxy.loseReply({ ops: ['setData'], pathPrefix: path, resetAfterMs: 1_000 });
    const writing = client.create(path, { data: Buffer.from('ours'), orSetData: { version: 0 } });
    await waitFor(async () => (await observer.exists(path))?.version === 1, {
      message: 'our setData applied',
    });
    await observer.setData(path, Buffer.from('later'));
    assert.equal((await lost).err, 0);
    const error = await writing.then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e,
    );
    assert.ok(isOutcomeUnknown(error, 'BAD_VERSION'), String(error));
    assert.equal((await observer.getData(path)).data.toString(), 'later');
  });
});
