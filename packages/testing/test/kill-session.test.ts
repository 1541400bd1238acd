import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  freePort,
  killSession,
  RawZooKeeperSession,
  sessionIdHex,
  TestingServer,
  uniquePath,
  ZooKeeperErrorCode,
  type RawZooKeeperError,
  type SessionCredentials,
} from '../src/index.js';

const GONE = [ZooKeeperErrorCode.CONNECTION_LOSS, ZooKeeperErrorCode.SESSION_EXPIRED] as const;

describe('killSession', () => {
  let server: TestingServer;
  let observer: RawZooKeeperSession;
  before(async () => {
    server = await TestingServer.start();
    observer = await RawZooKeeperSession.connect(server.connectString);
  });
  after(async () => {
    await observer.close();
    await server.close();
  });

  it("expires the session on the server: its ephemeral is gone and it can't be resumed", async () => {
    const owner = await RawZooKeeperSession.connect(server.connectString);
    const path = uniquePath('ephemeral');
    await owner.create(path, '', { mode: 'EPHEMERAL' });
    assert.equal(await observer.exists(path), true);
    assert.match(await server.fourLetter('dump'), new RegExp(sessionIdHex(owner.sessionId)));

    await killSession(owner.sessionCredentials(), server.connectString);

    assert.equal(await observer.exists(path), false, 'the ephemeral went with the session');
    assert.doesNotMatch(await server.fourLetter('dump'), new RegExp(sessionIdHex(owner.sessionId)));
    await assert.rejects(owner.exists('/'), (error: RawZooKeeperError) =>
      (GONE as readonly unknown[]).includes(error.code),
    );
    assert.equal(owner.closed, true);
    await assert.rejects(
      RawZooKeeperSession.connect(server.connectString, owner.sessionCredentials()),
      { code: ZooKeeperErrorCode.SESSION_EXPIRED, message: /session expired/ },
    );
  });

  it('accepts a SessionOwner such as a client object', async () => {
    const owner = await RawZooKeeperSession.connect(server.connectString);
    const path = uniquePath('owner');
    await owner.create(path, '', { mode: 'EPHEMERAL' });
    await killSession(owner, server.connectString);
    assert.equal(await observer.exists(path), false);
  });

  it('still expires the session when its owner keeps re-attaching', async () => {
    const original = await RawZooKeeperSession.connect(server.connectString);
    const credentials = original.sessionCredentials();
    let attaches = 0;
    let stop = false;
    let firstAttach: () => void = () => undefined;
    const attachedOnce = new Promise<void>((resolve) => (firstAttach = resolve));
    let current: RawZooKeeperSession | undefined;
    // An owner with an eager reconnect loop, like a client library: whenever it loses its
    // connection it attaches again at once, racing the takeover.
    const reattachLoop = (async () => {
      while (!stop) {
        try {
          current = await RawZooKeeperSession.connect(server.connectString, credentials);
          attaches++;
          firstAttach();
          while (!current.closed && !stop) await new Promise((resolve) => setImmediate(resolve));
        } catch (error) {
          if ((error as RawZooKeeperError).code === ZooKeeperErrorCode.SESSION_EXPIRED) return;
        }
      }
    })();
    try {
      await attachedOnce;
      await killSession(credentials, server.connectString);
    } finally {
      // Not awaiting the loop's own end: if the owner re-attached in the same instant as
      // the takeover, ZooKeeper may keep that connection open until it expires.
      stop = true;
      original.destroy();
      current?.destroy();
      await reattachLoop;
    }
    assert.ok(attaches >= 1);
    await assert.rejects(RawZooKeeperSession.connect(server.connectString, credentials), {
      code: ZooKeeperErrorCode.SESSION_EXPIRED,
    });
  });

  it('rejects when the owner has no session yet', async () => {
    await assert.rejects(
      killSession({ sessionCredentials: () => undefined }, server.connectString),
      /no session/,
    );
  });

  it('rejects with a clear error when no server answers', async () => {
    const nowhere = `127.0.0.1:${await freePort()}`;
    const credentials: SessionCredentials = { sessionId: 0x1234n, password: Buffer.alloc(16) };
    await assert.rejects(
      killSession(credentials, nowhere, { timeoutMs: 300 }),
      /could not expire session 0x1234 within 300 ms \(still listed by .*no server answered/,
    );
  });
});
