// Host names in the connect string are looked up on every connection attempt, not once: a
// service whose ZooKeeper moved to another address (a DNS change) is followed without a
// restart. The lookup is node:dns's, which net.connect calls for each socket; the test stands
// in for DNS by replacing dns.lookup for one made-up host name.
import assert from 'node:assert/strict';
import dns from 'node:dns';
import { after, before, describe, it } from 'node:test';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import { silentLogger } from '../../src/logging/silent-logger.js';

const HOST = 'zookeeper.dns-test.invalid';

type LookupCallback = (...args: unknown[]) => void;

describe('host names resolved on every attempt', () => {
  let server: TestingServer;
  const original = dns.lookup;
  /** Where HOST points now. The server listens on 127.0.0.1 only: 127.0.0.2 refuses. */
  let address = '127.0.0.2';
  const answers: string[] = [];

  before(async () => {
    server = await TestingServer.start();
    const lookup = (hostname: string, options: unknown, callback?: LookupCallback): void => {
      const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
      if (hostname !== HOST) {
        (original as (...args: unknown[]) => void)(hostname, options, callback);
        return;
      }
      answers.push(address);
      const all = typeof options === 'object' && (options as { all?: boolean } | null)?.all;
      process.nextTick(() => (all ? cb(null, [{ address, family: 4 }]) : cb(null, address, 4)));
    };
    (dns as unknown as { lookup: unknown }).lookup = lookup;
  });
  after(async () => {
    (dns as unknown as { lookup: unknown }).lookup = original;
    await server.close();
  });

  it('a DNS change is followed: attempts at the old address fail, the next one reaches the new', async () => {
    const client = createFramework({
      connectString: `${HOST}:${server.port}`,
      connectionTimeoutMs: 15_000,
      logger: silentLogger,
    });
    try {
      const started = client.start({ timeoutMs: timing.ms(15_000) });
      await waitFor(() => answers.length >= 2, {
        message: 'two attempts at the old address',
        timeoutMs: timing.ms(10_000),
      });
      assert.equal(client.health().lastConnectionError?.code, 'ECONNREFUSED');
      const before = answers.length;
      address = '127.0.0.1';
      await started;
      assert.ok(answers.length > before, 'looked up again after the change');
      assert.equal(answers.at(-1), '127.0.0.1');
      const path = uniquePath('dns');
      await client.create(path);
      assert.notEqual(await client.exists(path), null);
    } finally {
      await client.close();
    }
  });
});
