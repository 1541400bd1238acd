import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import {
  InvalidArgumentError,
  MAX_NODE_DATA_BYTES,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { RecipeState } from '@zkrecipes/caches';
import {
  FaultProxy,
  RawZooKeeperSession,
  TestingServer,
  timing,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import { startClient } from '@zkrecipes/test-support';
import { GroupMember, type GroupMembers } from '../src/index.js';

// dist/test/group-member.test.js -> dist/test/fixtures/member-process.js
const memberProcess = new URL('./fixtures/member-process.js', import.meta.url).pathname;

/** `id=payload` strings, sorted. */
function view(members: GroupMembers): string[] {
  return [...members].map(([id, payload]) => `${id}=${payload.toString()}`).sort();
}

/** The first view of `member` whose ids are exactly `ids` (pushed by the stream, no polling). */
function viewWithIds(member: GroupMember, ids: string[]): Promise<GroupMembers> {
  const wanted = [...ids].sort().join(',');
  return firstValueFrom(
    member.members.pipe(filter((members) => [...members.keys()].sort().join(',') === wanted)),
  );
}

describe('GroupMember', () => {
  let server: TestingServer;
  let observerClient: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    observerClient = await startClient(server.connectString);
  });
  after(async () => {
    await observerClient.close();
    await server.close();
  });

  it('20 members join and an observer sees all 20 through the members stream; 10 leave and it sees the other 10', async (t) => {
    const group = uniquePath('group');
    const ids = Array.from({ length: 20 }, (_, i) => `m${i}`);
    const clients = await Promise.all(ids.map(() => startClient(server.connectString)));
    try {
      await using observer = new GroupMember(observerClient, group, 'observer');
      const pushed: string[][] = [];
      observer.on('membersChanged', (members) => {
        pushed.push(view(members));
      });
      await observer.start();
      const everyone = viewWithIds(observer, ['observer', ...ids]);
      const members = ids.map(
        (id, i) => new GroupMember(clients[i]!, group, id, Buffer.from(`payload ${id}`)),
      );
      const started = performance.now();
      for (const member of members) await member.start();
      const joined = await everyone;
      const joinMs = performance.now() - started;
      assert.deepEqual(
        view(joined),
        ['observer=', ...ids.map((id) => `${id}=payload ${id}`)].sort(),
      );

      const remaining = ids.slice(10);
      const afterLeave = viewWithIds(observer, ['observer', ...remaining]);
      const leaving = performance.now();
      for (const member of members.slice(0, 10)) await member.close();
      await afterLeave;
      const leaveMs = performance.now() - leaving;
      assert.deepEqual(
        view(observer.getCurrentMembers()),
        ['observer=', ...remaining.map((id) => `${id}=payload ${id}`)].sort(),
      );
      // Listeners got the same views as the stream, the last one included.
      assert.deepEqual(pushed.at(-1), view(observer.getCurrentMembers()));
      // Every member of the group comes to see the same group.
      await viewWithIds(members[10]!, ['observer', ...remaining]);
      t.diagnostic(
        `20 joins seen by the observer after ${joinMs.toFixed(1)} ms, ` +
          `10 leaves after ${leaveMs.toFixed(1)} ms (first round, cold)`,
      );
      for (const member of members.slice(10)) await member.close();
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  it('a member whose process is SIGKILLed disappears from the view within the session timeout', async () => {
    const group = uniquePath('group-kill');
    await using observer = new GroupMember(observerClient, group, 'observer');
    await observer.start();
    const joined = viewWithIds(observer, ['observer', 'doomed']);
    const child = spawn(process.execPath, [memberProcess, server.connectString, group, 'doomed'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      const ready = new Promise<void>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          if (line === 'READY') resolve();
        });
        child.once('exit', (code) => reject(new Error(`member process exited (${code})`)));
      });
      await ready;
      const members = await joined;
      assert.match(members.get('doomed')?.toString() ?? '', /^pid \d+$/);
      const gone = viewWithIds(observer, ['observer']);
      const killed = performance.now();
      child.kill('SIGKILL');
      await gone;
      const goneMs = performance.now() - killed;
      // Session timeout 2000 ms; the server checks expiry every tick (500 ms).
      assert.ok(goneMs < timing.ms(2000 + 500 + 1000), `gone after ${goneMs} ms`);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('changes made while the observer was cut off (join, leave, new payload) are in its view after RECONNECTED', async () => {
    const group = uniquePath('group-cut');
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const cutClient = await startClient(proxy.connectString);
    const client = await startClient(server.connectString);
    try {
      await using observer = new GroupMember(cutClient, group, 'observer');
      await observer.start();
      await using a = new GroupMember(client, group, 'a', Buffer.from('a1'));
      const b = new GroupMember(client, group, 'b', Buffer.from('b1'));
      await a.start();
      await b.start();
      await viewWithIds(observer, ['observer', 'a', 'b']);

      proxy.drop();
      await waitFor(() => cutClient.connectionState === 'SUSPENDED', { message: 'SUSPENDED' });
      await b.close();
      await a.setThisData(Buffer.from('a2'));
      await using c = new GroupMember(client, group, 'c', Buffer.from('c1'));
      await c.start();
      assert.equal(await c.waitForInitialCreate({ timeoutMs: 5000 }), true);
      proxy.heal();

      const healed = await firstValueFrom(
        observer.members.pipe(filter((m) => view(m).join(' ') === 'a=a2 c=c1 observer=')),
      );
      assert.deepEqual(view(healed), ['a=a2', 'c=c1', 'observer=']);
      assert.equal(cutClient.connectionState, 'RECONNECTED');
      // The watch is back too: a change after the reconnect arrives as usual.
      await c.setThisData(Buffer.from('c2'));
      await viewWithIds(observer, ['observer', 'a', 'c']);
      await firstValueFrom(observer.members.pipe(filter((m) => m.get('c')?.toString() === 'c2')));
    } finally {
      await cutClient.close();
      await client.close();
    }
  });

  it('a member re-created under the same id right after the old object closed (its create still in flight) ends up in the group, without an error', async () => {
    const group = uniquePath('group-reuse');
    const errors: unknown[] = [];
    for (let round = 0; round < 5; round++) {
      const old = new GroupMember(observerClient, group, 'x', Buffer.from('old'));
      await old.start(); // resolves at once: the create is still in flight
      const closing = old.close(); // not owned yet: the create's reply brings a background delete
      const next = new GroupMember(observerClient, group, 'x', Buffer.from(`new ${round}`));
      next.errors.subscribe((e) => errors.push(e.error));
      await next.start();
      await closing;
      assert.equal(await next.waitForInitialCreate({ timeoutMs: 5000 }), true);
      await waitFor(
        async () =>
          (await observerClient.getData(`${group}/x`).catch(() => undefined))?.data.toString() ===
          `new ${round}`,
        { message: `the node back with round ${round}'s payload` },
      );
      await next.close();
    }
    assert.deepEqual(errors, []);
  });

  it('setThisData: every member sees the new payload', async () => {
    const group = uniquePath('group-data');
    const client = await startClient(server.connectString);
    try {
      await using observer = new GroupMember(observerClient, group, 'observer');
      await observer.start();
      await using member = new GroupMember(client, group, 'worker', Buffer.from('v1'));
      await member.start();
      await viewWithIds(observer, ['observer', 'worker']);
      await member.setThisData(Buffer.from('v2'));
      const updated = await firstValueFrom(
        observer.members.pipe(filter((m) => m.get('worker')?.toString() === 'v2')),
      );
      assert.deepEqual(view(updated), ['observer=', 'worker=v2']);
    } finally {
      await client.close();
    }
  });

  it('a restarted member whose old session still holds its node replaces it at once: missing from one view at most, never until the old session expires', async () => {
    const group = await observerClient.create(uniquePath('group-restart'));
    const previous = await RawZooKeeperSession.connect(server.connectString, {
      sessionTimeoutMs: 30_000,
    });
    await previous.create(`${group}/svc`, 'old run', { mode: 'EPHEMERAL' });
    const client = await startClient(server.connectString);
    try {
      await using observer = new GroupMember(observerClient, group, 'observer');
      const views: string[][] = [];
      observer.members.subscribe((members) => views.push(view(members)));
      await observer.start();
      await viewWithIds(observer, ['observer', 'svc']);
      await using member = new GroupMember(client, group, 'svc', Buffer.from('new run'));
      await member.start();
      await firstValueFrom(
        observer.members.pipe(filter((m) => m.get('svc')?.toString() === 'new run')),
      );
      await previous.close();
      // The replacement is one multi (delete + create), so the old session's 30 s timeout
      // plays no part; its two events may arrive in different turns, leaving at most one view
      // without svc in between: old run, (gone), new run.
      const first = views.findIndex((v) => v.includes('svc=old run'));
      assert.ok(first >= 0);
      const shown = views.slice(first).map((v) => v.find((e) => e.startsWith('svc=')) ?? 'gone');
      assert.match(shown.join(' '), /^(svc=old run )+(gone )?svc=new run$/);
      assert.deepEqual(views.at(-1), ['observer=', 'svc=new run']);
    } finally {
      await previous.close();
      await client.close();
    }
  });

  it('a payload over the 1 MB node limit: the constructor throws and setThisData rejects with InvalidArgumentError before anything is sent; the view keeps the old payload', async () => {
    const group = uniquePath('group-big');
    const tooBig = Buffer.alloc(2 * 1024 * 1024);
    assert.throws(
      () => new GroupMember(observerClient, group, 'big', tooBig),
      InvalidArgumentError,
    );
    const member = new GroupMember(observerClient, group, 'm', Buffer.from('small'));
    try {
      await member.start();
      assert.equal(await member.waitForInitialCreate({ timeoutMs: 10_000 }), true);
      const before = await observerClient.getData(`${group}/m`);
      await assert.rejects(member.setThisData(tooBig), InvalidArgumentError);
      await assert.rejects(
        member.setThisData(Buffer.alloc(MAX_NODE_DATA_BYTES + 1)),
        InvalidArgumentError,
      );
      assert.deepEqual(view(member.getCurrentMembers()), ['m=small']);
      const after = await observerClient.getData(`${group}/m`);
      assert.equal(after.stat.mzxid, before.stat.mzxid, 'nothing was written');
      await member.setThisData(Buffer.from('still small'));
      await waitFor(() => view(member.getCurrentMembers()).join() === 'm=still small');
    } finally {
      await member.close();
    }
  });

  it('lifecycle: the view includes this member before anything is read; start twice rejects; close twice is a no-op and leaves the group', async () => {
    const group = uniquePath('group-life');
    const member = new GroupMember(observerClient, group, 'solo', Buffer.from('me'));
    assert.deepEqual(view(member.getCurrentMembers()), ['solo=me']);
    assert.deepEqual(view(await firstValueFrom(member.members)), ['solo=me']);
    assert.equal(member.idFromPath(`${group}/other`), 'other');
    await member.start();
    await assert.rejects(member.start(), /start\(\) on a STARTED GroupMember/);
    assert.equal(await member.waitForInitialCreate({ timeoutMs: 5000 }), true);
    assert.ok(await observerClient.exists(`${group}/solo`));
    await member.close();
    await member.close();
    assert.equal(member.state, RecipeState.CLOSED);
    assert.equal(await observerClient.exists(`${group}/solo`), null);
    assert.throws(() => new GroupMember(observerClient, group, 'a/b'), /memberId/);
  });
});
