import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import {
  RawZooKeeperSession,
  TestingServer,
  uniquePath,
  waitFor,
  ZooKeeperErrorCode,
  ZooKeeperStartError,
} from '../src/index.js';

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('TestingServer', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start({ jvmFlags: ['-Dzookeeper.enforceQuota=true'] });
  });
  after(() => server.close());

  it('answers ruok with imok on 127.0.0.1 and serves a raw client', async () => {
    assert.equal(server.host, '127.0.0.1');
    assert.equal(server.connectString, `127.0.0.1:${server.port}`);
    assert.equal(await server.fourLetter('ruok'), 'imok');
    assert.match(await server.fourLetter('srvr'), /^Mode: standalone$/m);
    const session = await RawZooKeeperSession.connect(server.connectString);
    try {
      const path = uniquePath('server');
      assert.equal(await session.create(path, 'hello'), path);
      assert.equal((await session.getData(path)).toString(), 'hello');
    } finally {
      await session.close();
    }
  });

  it('keeps its temp dir under os.tmpdir() and passes extra jvmFlags to the JVM', () => {
    assert.ok(server.tempDir.startsWith(tmpdir()), server.tempDir);
    assert.ok(server.dataDir.startsWith(server.tempDir));
    const pid = server.pid;
    assert.ok(pid !== undefined && server.running);
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    assert.ok(args.includes('-Dzookeeper.enforceQuota=true'), args.join(' '));
    assert.ok(args.includes('org.apache.zookeeper.server.ZooKeeperServerMain'));
  });

  it('stop then restart keeps the port, the data and a session within its timeout', async () => {
    const port = server.port;
    const persistent = uniquePath('restart');
    const ephemeral = uniquePath('restart-ephemeral');
    const session = await RawZooKeeperSession.connect(server.connectString, {
      sessionTimeoutMs: 20_000,
    });
    await session.create(persistent, 'kept');
    await session.create(ephemeral, '', { mode: 'EPHEMERAL' });

    await server.stop();
    assert.equal(server.running, false);
    assert.equal(server.pid, undefined);
    await waitFor(() => session.closed, { message: 'the session to see its connection drop' });
    await assert.rejects(server.fourLetter('ruok', { timeoutMs: 1000 }));

    await server.restart();
    assert.equal(server.port, port);
    assert.equal(server.running, true);
    const again = await RawZooKeeperSession.connect(
      server.connectString,
      session.sessionCredentials(),
    );
    try {
      assert.equal(again.sessionId, session.sessionId, 'the session was still valid');
      assert.equal((await again.getData(persistent)).toString(), 'kept');
      assert.equal(await again.exists(ephemeral), true, "the session's ephemeral survived");
    } finally {
      await again.close();
    }
  });

  it('pause makes a request time out and resume makes the server answer again', async () => {
    const session = await RawZooKeeperSession.connect(server.connectString, {
      requestTimeoutMs: 300,
    });
    try {
      await server.pause();
      assert.equal(server.paused, true);
      try {
        await assert.rejects(session.exists('/'), { code: 'TIMEOUT' });
      } finally {
        server.resume();
      }
      assert.equal(server.paused, false);
      assert.equal(await session.exists('/'), true);
    } finally {
      await session.close();
    }
  });

  it('close kills the JVM and removes the temp dir; a second close does nothing', async () => {
    const own = await TestingServer.start();
    const pid = own.pid;
    assert.ok(pid !== undefined && pidAlive(pid));
    assert.ok(existsSync(own.tempDir));
    await own.close();
    assert.equal(pidAlive(pid), false);
    assert.equal(existsSync(own.tempDir), false);
    assert.equal(own.running, false);
    await own.close();
    await assert.rejects(own.restart(), /closed/);
  });

  it('fails with a bind conflict and the log tail when an explicit port is taken', async () => {
    const blocker = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      await assert.rejects(TestingServer.start({ port }), (error: unknown) => {
        assert.ok(error instanceof ZooKeeperStartError);
        assert.equal(error.code, 'ZOOKEEPER_START_FAILED');
        assert.equal(error.bindConflict, true);
        assert.match(error.message, /Address already in use/);
        return true;
      });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('applies tickTime, session limits and extra properties to zoo.cfg', async () => {
    const own = await TestingServer.start({
      maxSessionTimeoutMs: 4000,
      properties: { 'zookeeper.extra.test': 'yes' },
    });
    try {
      const cfg = readFileSync(`${own.tempDir}/zoo.cfg`, 'utf8');
      assert.match(cfg, /^tickTime=500$/m);
      assert.match(cfg, /^zookeeper\.extra\.test=yes$/m);
      const session = await RawZooKeeperSession.connect(own.connectString, {
        sessionTimeoutMs: 30_000,
      });
      assert.equal(session.sessionTimeoutMs, 4000, 'the server clamps to maxSessionTimeout');
      await session.close();
      await assert.rejects(
        RawZooKeeperSession.connect(own.connectString, session.sessionCredentials()),
        { code: ZooKeeperErrorCode.SESSION_EXPIRED },
      );
    } finally {
      await own.close();
    }
  });
});
