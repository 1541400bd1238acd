import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { isInvalidArgument } from '../../src/errors/predicates.js';
import { silentLogger } from '../../src/logging/silent-logger.js';

/** How often the server reaps empty containers (its default is a minute). */
const CHECK_INTERVAL_MS = 100;

describe('exists with createParents (Curator checkExists().creatingParent*IfNeeded())', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start({ containerCheckIntervalMs: CHECK_INTERVAL_MS });
    client = createFramework({ connectString: server.connectString, logger: silentLogger });
    await client.start({ timeoutMs: timing.ms(10_000) });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('makes the missing parents as CONTAINERs, answers null for the missing node; the server reaps them once emptied', async () => {
    const root = uniquePath('exists-parents');
    const leaf = `${root}/a/b/leaf`;
    assert.equal(await client.exists(leaf, { createParents: true }), null);
    for (const parent of [root, `${root}/a`, `${root}/a/b`]) {
      assert.notEqual(await client.exists(parent), null, `${parent} was made`);
    }
    assert.equal(await client.exists(leaf), null, 'the node itself is not made');
    await client.create(leaf);
    await client.delete(leaf);
    await waitFor(async () => (await client.exists(root)) === null, {
      timeoutMs: timing.ms(10_000),
      message: 'containers reaped level by level',
    });
  });

  it('containerParents: false makes PERSISTENT parents, which stay once emptied', async () => {
    const root = uniquePath('exists-persistent');
    const leaf = `${root}/p/leaf`;
    assert.equal(await client.exists(leaf, { createParents: true, containerParents: false }), null);
    await client.create(leaf);
    await client.delete(leaf);
    // A sibling container made after the delete is reaped within a few check intervals; by
    // then the persistent parents would have been too, were they containers.
    const probe = `${uniquePath('probe')}/x/y`;
    await client.exists(probe, { createParents: true });
    await client.create(probe);
    await client.delete(probe);
    await waitFor(async () => (await client.exists(probe.slice(0, probe.indexOf('/x')))) === null, {
      timeoutMs: timing.ms(10_000),
      message: 'the probe container reaped',
    });
    assert.notEqual(await client.exists(`${root}/p`), null);
    assert.notEqual(await client.exists(root), null);
  });

  it('answers the Stat of an existing node; a bad flag is an InvalidArgumentError', async () => {
    const root = uniquePath('exists-plain');
    await client.create(`${root}/x`, { createParents: true, data: Buffer.from('x') });
    const stat = await client.exists(`${root}/x`, { createParents: true });
    assert.equal(stat?.dataLength, 1);
    const untouched = uniquePath('none');
    assert.equal(await client.exists(`${untouched}/y`), null);
    assert.equal(await client.exists(untouched), null, 'no parents without the option');
    await assert.rejects(
      client.exists(`${root}/x`, { createParents: 'yes' as unknown as boolean }),
      (error) => isInvalidArgument(error),
    );
  });
});
