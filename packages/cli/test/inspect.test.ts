// `zkrecipes inspect` run as a subprocess against live zkrecipes recipes: the decoded --json
// output names the holders, waiters, sessions and payloads the recipes really have.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { GroupMember } from '@zkrecipes/group';
import {
  InterProcessMutex,
  InterProcessReadWriteLock,
  InterProcessSemaphoreV2,
} from '@zkrecipes/locks';
import { freePort, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { CliError, parseCliArgs } from '../src/index.js';
import { inspectJson, runCli, sessionOf } from './helpers.js';

interface Node {
  name: string;
  sessionId: string;
  fencingToken: string;
  data: string;
  encoding: string;
  ageMs: number;
  lock?: string;
  id?: string;
}

describe('zkrecipes inspect', () => {
  let server: TestingServer;
  let clients: FrameworkClient[];
  let a: FrameworkClient;
  let b: FrameworkClient;
  let c: FrameworkClient;

  before(async () => {
    server = await TestingServer.start();
    clients = await Promise.all([1, 2, 3].map(() => connectedClient(server)));
    [a, b, c] = clients as [FrameworkClient, FrameworkClient, FrameworkClient];
  });
  after(async () => {
    await closeAll(clients);
    await server.close();
  });

  it('decodes a mutex: the holder with its session, token and data, then the waiter', async () => {
    const path = uniquePath('cli-mutex');
    const holder = new InterProcessMutex(a, path, { lockData: Buffer.from('worker-a') });
    await holder.acquire();
    const waiter = new InterProcessMutex(b, path, { lockData: Buffer.from('worker-b') });
    const waiting = waiter.acquire();
    await waitFor(async () => (await a.getChildren(path)).length === 2);

    const out = await inspectJson(server, path);
    assert.equal(out.kind, 'mutex');
    const held = out.holder as Node;
    assert.equal(held.sessionId, sessionOf(a));
    assert.equal(held.data, 'worker-a');
    assert.equal(held.fencingToken, holder.hold!.fencingToken.toString());
    const waiters = out.waiters as Node[];
    assert.deepEqual(
      waiters.map((w) => [w.sessionId, w.data]),
      [[sessionOf(b), 'worker-b']],
    );

    await holder.release();
    await waiting;
    const after = await inspectJson(server, path);
    assert.equal((after.holder as Node).sessionId, sessionOf(b));
    // A successor's token is its own node's czxid too (not the parent's pzxid, which the
    // release has moved past it): the holder and the CLI name the same number.
    assert.equal((after.holder as Node).fencingToken, waiter.hold!.fencingToken.toString());
    assert.deepEqual(after.waiters, []);
    await waiter.release();
  });

  it('shows a mutex as aligned tables without --json', async () => {
    const path = uniquePath('cli-human');
    const mutex = new InterProcessMutex(a, path, { lockData: Buffer.from('worker-a') });
    await mutex.acquire();
    const run = await runCli(['inspect', path, '-c', server.connectString]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`held by session ${sessionOf(a)}`));
    assert.match(run.stdout, /ROLE\s+NODE\s+SESSION\s+TOKEN\s+AGE\s+DATA/);
    assert.match(
      run.stdout,
      /holder\s+_c_[0-9a-f-]{36}-lock-0000000000\s+0x[0-9a-f]+\s+\d+\s+\S+\s+worker-a/,
    );
    await mutex.release();
  });

  it('decodes a read/write lock: two readers hold, a writer waits', async () => {
    const path = uniquePath('cli-rw');
    const readA = new InterProcessReadWriteLock(a, path).readLock();
    const readB = new InterProcessReadWriteLock(b, path).readLock();
    await readA.acquire();
    await readB.acquire();
    const writer = new InterProcessReadWriteLock(c, path).writeLock();
    const writing = writer.acquire();
    await waitFor(async () => (await a.getChildren(path)).length === 3);

    const out = await inspectJson(server, path);
    assert.equal(out.kind, 'read-write-lock');
    assert.equal(out.mode, 'read');
    const holders = out.holders as Node[];
    assert.deepEqual(
      holders.map((h) => h.lock),
      ['read', 'read'],
    );
    assert.deepEqual(
      new Set(holders.map((h) => h.sessionId)),
      new Set([sessionOf(a), sessionOf(b)]),
    );
    const waiters = out.waiters as Node[];
    assert.deepEqual(
      waiters.map((w) => [w.lock, w.sessionId]),
      [['write', sessionOf(c)]],
    );

    await readA.release();
    await readB.release();
    await writing;
    const after = await inspectJson(server, path);
    assert.equal(after.mode, 'write');
    assert.equal((after.holders as Node[])[0]!.sessionId, sessionOf(c));
    await writer.release();
  });

  it("decodes a semaphore: leases in order with the leases' fencing tokens, the waiting process inside acquire", async () => {
    const path = uniquePath('cli-semaphore');
    const lease1 = await new InterProcessSemaphoreV2(a, path, 2).acquire();
    const lease2 = await new InterProcessSemaphoreV2(b, path, 2).acquire();
    const third = new InterProcessSemaphoreV2(c, path, 2).acquire();
    await waitFor(async () => (await a.getChildren(`${path}/leases`)).length === 3);

    const out = await inspectJson(server, path);
    assert.equal(out.kind, 'semaphore');
    const leases = out.leases as Node[];
    assert.deepEqual(
      leases.map((l) => l.sessionId),
      [sessionOf(a), sessionOf(b), sessionOf(c)],
    );
    assert.deepEqual(
      (out.acquiring as Node[]).map((l) => l.sessionId),
      [sessionOf(c)],
    );
    // Each lease's fencing token is the TOKEN inspect shows for its node.
    assert.deepEqual(
      leases.slice(0, 2).map((l) => l.fencingToken),
      [lease1.fencingTokenString, lease2.fencingTokenString],
    );

    await lease1.close();
    const lease3 = await third;
    await lease2.close();
    await lease3.close();
  });

  it('decodes a group: member ids, payloads and sessions', async () => {
    const path = uniquePath('cli-group');
    const one = new GroupMember(a, path, 'worker-1', Buffer.from('10.0.0.1:8080'));
    const two = new GroupMember(b, path, 'worker-2', Buffer.from([0xff, 0x00, 0x01]));
    await one.start();
    await two.start();
    await waitFor(async () => (await a.getChildren(path).catch(() => [])).length === 2);

    const out = await inspectJson(server, path);
    assert.equal(out.kind, 'group');
    assert.deepEqual(
      (out.members as Node[]).map((m) => [m.id, m.data, m.encoding, m.sessionId]),
      [
        ['worker-1', '10.0.0.1:8080', 'utf8', sessionOf(a)],
        ['worker-2', Buffer.from([0xff, 0x00, 0x01]).toString('base64'), 'base64', sessionOf(b)],
      ],
    );
    await one.close();
    await two.close();
  });

  it('lists a path with no recipe as a tree (exit 0), and exits 1 for it with --strict', async () => {
    const path = uniquePath('cli-tree');
    await a.create(`${path}/config`, { data: Buffer.from('x=1'), createParents: true });
    await a.create(`${path}/other`);
    const out = await inspectJson(server, path);
    assert.equal(out.kind, 'tree');
    assert.deepEqual(
      (out.children as { name: string; data: string }[]).map((child) => [child.name, child.data]),
      [
        ['config', 'x=1'],
        ['other', ''],
      ],
    );
    const strict = await runCli(['inspect', path, '--strict', '-c', server.connectString]);
    assert.equal(strict.code, 1);
    assert.match(strict.stderr, /no recipe layout recognised/);
  });

  it('works inside a chroot given in the connect string', async () => {
    const root = uniquePath('cli-chroot');
    const mutex = new InterProcessMutex(a, `${root}/jobs/lock`);
    await mutex.acquire();
    const run = await runCli([
      'inspect',
      '/jobs/lock',
      '--json',
      '-c',
      `${server.connectString}${root}`,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as { kind: string }).kind, 'mutex');
    await mutex.release();
  });

  it('a released lock holds nothing: its empty path and its missing one read as free, exit 0 with --strict', async () => {
    const path = uniquePath('cli-free');
    const mutex = new InterProcessMutex(a, path);
    await mutex.acquire();
    await mutex.release();
    assert.deepEqual(await a.getChildren(path), [], 'the lock node is gone, its path stays');
    const empty = await inspectJson(server, path, ['--strict']);
    assert.deepEqual(
      [empty.kind, empty.exists, (empty.node as { name: string }).name],
      ['empty', true, path.slice(1)],
    );
    const human = await runCli(['inspect', path, '--strict', '-c', server.connectString]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /nothing held\nfree: no lock, election, queue, barrier or group/);

    // ZooKeeper removes an emptied container path; a lock never taken has none either.
    await a.delete(path);
    const missing = await inspectJson(server, path, ['--strict']);
    assert.deepEqual([missing.kind, missing.exists, missing.node], ['empty', false, undefined]);
    const gone = await runCli(['inspect', path, '--strict', '-c', server.connectString]);
    assert.equal(gone.code, 0, gone.stderr);
    assert.equal(gone.stderr, '');
    assert.match(gone.stdout, new RegExp(`no node at ${path}: free, nobody holds`));
  });

  it('exits 2 on bad usage: unknown command, unknown flag, missing or relative path', async () => {
    for (const args of [
      ['frobnicate', '/x'],
      ['inspect', '/x', '--frob'],
      ['inspect'],
      ['inspect', 'relative/path'],
      ['inspect', '/x', '--timeout', 'soon'],
      [],
    ]) {
      const run = await runCli([...args, '-c', server.connectString]);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, /zkrecipes help|Usage/);
    }
    // A program using the parser branches on the same thing, by code.
    assert.throws(
      () => parseCliArgs(['inspect', '/x', '--frob'], {}),
      (error: unknown) =>
        error instanceof CliError && error.code === 'USAGE' && error.exitCode === 2,
    );
    const help = await runCli(['help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Exit codes/);
  });

  it('exits 3 within the connection timeout for an unreachable ensemble, naming the hosts and the cause', async () => {
    const [p1, p2] = [await freePort(), await freePort()];
    const hosts = `127.0.0.1:${p1},127.0.0.1:${p2}`;
    const run = await runCli(['inspect', '/x', '-c', hosts, '--timeout', '1000']);
    assert.equal(run.code, 3);
    assert.match(
      run.stderr,
      new RegExp(`127\\.0\\.0\\.1:${p1}, 127\\.0\\.0\\.1:${p2} within 1000 ms`),
    );
    // ...and why: nothing listens on either port.
    assert.match(run.stderr, /ECONNREFUSED/);
    assert.ok(run.elapsedMs < 6000, `took ${Math.round(run.elapsedMs)} ms`);
    const json = await runCli(['inspect', '/x', '--json', '-c', hosts, '--timeout', '500']);
    assert.equal(json.code, 3);
    assert.equal((JSON.parse(json.stdout) as { exitCode: number }).exitCode, 3);
  });
});
