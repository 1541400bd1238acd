// Curator (Java) and our InterProcessMutex on a ZooKeeper that requires SASL: both sides
// authenticate with DIGEST-MD5 (Java through a JAAS Client section, ours through the `sasl`
// option) and still exclude each other. A side whose SASL failed could not do anything here:
// the server closes such sessions (SESSION_CLOSED_REQUIRE_SASL_AUTH).
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { JavaPeer, TestingServer, uniquePath } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { InterProcessMutex } from '../src/index.js';

const peerSource = new URL('../../test/fixtures/CuratorLockPeer.java', import.meta.url).pathname;
const USER = 'locker';
const PASSWORD = 'locker-secret';

/** An exclusive-create file: creating it while it exists means two holders at once. */
function enterWitness(file: string): boolean {
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch {
    return false;
  }
}

describe('interop with Curator 5.4 (Java) over SASL DIGEST-MD5', () => {
  let server: TestingServer;
  let peer: JavaPeer;
  let witnessDir: string;
  let clients: FrameworkClient[];
  let counter = 0;

  before(async () => {
    server = await TestingServer.start({ sasl: { users: { [USER]: PASSWORD }, required: true } });
    peer = await JavaPeer.start({
      source: peerSource,
      args: [server.connectString],
      sasl: { username: USER, password: PASSWORD },
    });
    witnessDir = mkdtempSync(join(tmpdir(), 'zkrecipes-sasl-witness-'));
    const sasl = { mechanism: 'DIGEST-MD5', username: USER, password: PASSWORD } as const;
    clients = await Promise.all([0, 1].map(() => connectedClient(server, { sasl })));
  });
  after(async () => {
    await closeAll(clients);
    await peer.close();
    await server.close();
    rmSync(witnessDir, { recursive: true, force: true });
  });

  it("a Java holder makes our acquire(0) false and ours makes Java's false", async () => {
    const path = uniquePath('sasl-interop-mutex');
    const java = `j${++counter}`;
    assert.equal(await peer.request(`mutex ${java} ${path}`), 'OK');
    assert.equal(await peer.request(`acquire ${java} -1`), 'OK true');
    const mutex = new InterProcessMutex(clients[0]!, path);
    assert.equal(await mutex.acquire(0), false);
    assert.equal(await peer.request(`release ${java}`), 'OK');
    assert.equal(await mutex.acquire(0), true);
    assert.equal(await peer.request(`acquire ${java} 0`), 'OK false');
    await mutex.release();
  });

  it('2 Java + 2 Node contenders, 80 handoffs: never two holders (exclusive-create witness)', async () => {
    const path = uniquePath('sasl-interop-contended');
    const witness = join(witnessDir, `${counter++}.held`);
    assert.equal(await peer.request(`contend ${path} 2 20 ${witness}`), 'OK');
    const javaDone = peer.expectLine(/^EVENT contend-(done|error)/);
    let nodeViolations = 0;
    await Promise.all(
      clients.map(async (client) => {
        const mutex = new InterProcessMutex(client, path);
        for (let i = 0; i < 20; i++) {
          await mutex.acquire();
          try {
            if (!enterWitness(witness)) nodeViolations++;
            await new Promise<void>((resolve) => setImmediate(resolve));
            unlinkSync(witness);
          } finally {
            await mutex.release();
          }
        }
      }),
    );
    const [, javaViolations, javaCycles] = (await javaDone).split(' ').slice(1);
    assert.equal(javaViolations, '0', 'Java saw no overlap');
    assert.equal(javaCycles, '40');
    assert.equal(nodeViolations, 0, 'Node saw no overlap');
  });
});
