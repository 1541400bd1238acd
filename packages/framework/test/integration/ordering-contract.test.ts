import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { firstValueFrom, filter } from 'rxjs';
import { FaultProxy, TestingServer, uniquePath } from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { op } from '../../src/client/transaction-op.js';
import { quickClient } from './fixtures/quick-client.js';

/** Two busy processes: the event loop runs late, as on a loaded machine. */
async function withCpuHog<T>(run: () => Promise<T>): Promise<T> {
  const hogs = [0, 1].map(() =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  try {
    return await run();
  } finally {
    for (const hog of hogs) hog.kill('SIGKILL');
  }
}

/** Blocks the event loop: the server's replies and notifications pile up in one socket read. */
function busyWait(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spinning on purpose
  }
}

/** The call index each sequential node's data carries, in the server's sequence order. */
async function sequenceOrder(client: FrameworkClient, parent: string): Promise<number[]> {
  const names = (await client.getChildren(parent)).sort();
  const reads = await Promise.all(names.map((name) => client.getData(`${parent}/${name}`)));
  return reads.map((read) => Number(read.data.toString()));
}

/**
 * Issues `count` mixed operations in one synchronous stretch and checks that the server saw
 * them in call order: sequential creates (through the client, through a namespace view that
 * still has to check its namespace node, and inside transactions) must be numbered in call
 * order, and every read of the counter node must see exactly the writes called before it.
 */
async function mixedCallsInOneTick(client: FrameworkClient, count: number): Promise<void> {
  const root = uniquePath('order');
  await client.create(`${root}/seq`, { createParents: true });
  await client.create(`${root}/counter`, { data: Buffer.from('-1') });
  // A fresh view: its first calls wait for its namespace check, and every call after waits
  // behind them.
  const view = client.usingNamespace(root.slice(1));
  const pending: Promise<unknown>[] = [];
  const checks: (() => Promise<void>)[] = [];
  let writes = 0;
  let lastWritten = -1;
  for (let i = 0; i < count; i++) {
    const data = Buffer.from(String(i));
    switch (i % 7) {
      case 0:
        pending.push(client.create(`${root}/seq/n-`, { mode: 'PERSISTENT_SEQUENTIAL', data }));
        break;
      case 1:
        pending.push(view.create('/seq/n-', { mode: 'PERSISTENT_SEQUENTIAL', data }));
        break;
      case 2:
        pending.push(client.setData(`${root}/counter`, data));
        writes++;
        lastWritten = i;
        break;
      case 3: {
        const expected = String(lastWritten);
        const read = client.getData(`${root}/counter`);
        checks.push(async () => assert.equal((await read).data.toString(), expected, `read ${i}`));
        break;
      }
      case 4: {
        const expected = writes;
        const stat = client.exists(`${root}/counter`);
        checks.push(async () => assert.equal((await stat)?.version, expected, `exists ${i}`));
        break;
      }
      case 5:
        pending.push(
          client.transaction([
            op.create(`${root}/seq/n-`, { mode: 'PERSISTENT_SEQUENTIAL', data }),
          ]),
        );
        break;
      case 6: {
        const expected = String(lastWritten);
        const read = view.getData('/counter');
        checks.push(async () => assert.equal((await read).data.toString(), expected, `view ${i}`));
        break;
      }
    }
  }
  await Promise.all(pending);
  for (const check of checks) await check();
  const order = await sequenceOrder(client, `${root}/seq`);
  const creates = Array.from({ length: count }, (_, i) => i).filter((i) =>
    [0, 1, 5].includes(i % 7),
  );
  assert.deepEqual(order, creates);
}

describe('ordering contract (real server)', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await quickClient(server.connectString, { sessionTimeoutMs: 10_000 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('1,000 mixed operations called in one tick reach the server in call order', async () => {
    await mixedCallsInOneTick(client, 1_000);
  });

  it('1,000 mixed operations in one tick keep call order under a CPU hog', async () => {
    await withCpuHog(() => mixedCallsInOneTick(client, 1_000));
  });

  it('operations called while disconnected are sent in call order once the connection is back', async () => {
    await using proxy = await FaultProxy.start({ targetPort: server.port });
    const viaProxy = await quickClient(proxy.connectString, { sessionTimeoutMs: 10_000 });
    try {
      const suspended = firstValueFrom(
        viaProxy.connectionStates.pipe(filter((state) => state === 'SUSPENDED')),
      );
      proxy.drop();
      await suspended;
      const run = mixedCallsInOneTick(viaProxy, 300);
      setTimeout(() => proxy.heal(), 300);
      await run;
    } finally {
      await viaProxy.close();
    }
  });

  it("a watch event read in one socket batch between two replies reaches its watcher after the first reply's caller resumed and before the second's", async () => {
    const path = uniquePath('watch-after-reply');
    await client.create(path, { data: Buffer.from('a') });
    for (let round = 0; round < 20; round++) {
      const seen: string[] = [];
      let fire = (): void => {};
      const fired = new Promise<void>((resolve) => (fire = resolve));
      const read = client.getData(path, {
        watch: () => {
          seen.push('watcher');
          fire();
        },
      });
      const continued = read.then(() => seen.push('read continued'));
      // The server sends the notification before the reply to the write that caused it.
      const wrote = client
        .setData(path, Buffer.from(`v${round}`))
        .then(() => seen.push('write continued'));
      busyWait(150);
      await Promise.all([continued, wrote, fired]);
      assert.deepEqual(seen, ['read continued', 'watcher', 'write continued'], `round ${round}`);
    }
  });

  it('the same holds for persistent watches and under a CPU hog', async () => {
    const path = uniquePath('persistent-after-reply');
    await client.create(path, { data: Buffer.from('a') });
    let seen: string[] = [];
    let events = 0;
    const watch = await client.addWatch(path, () => {
      seen.push('listener');
      events++;
    });
    try {
      await withCpuHog(async () => {
        for (let round = 0; round < 10; round++) {
          seen = [];
          const before = events;
          const read = client.getData(path);
          const continued = read.then(() => seen.push('read continued'));
          const wrote = client
            .setData(path, Buffer.from(`v${round}`))
            .then(() => seen.push('write continued'));
          busyWait(150);
          await Promise.all([continued, wrote]);
          assert.equal(events, before + 1, `round ${round}: one event`);
          assert.deepEqual(
            seen,
            ['read continued', 'listener', 'write continued'],
            `round ${round}`,
          );
        }
      });
    } finally {
      await watch.remove();
    }
  });

  it('a read that re-sets a shared watch is not told of an event read before its reply, and hears the next change', async () => {
    const path = uniquePath('watch-reset');
    await client.create(path, { data: Buffer.from('a') });
    const seen: string[] = [];
    await client.getData(path, { watch: (event) => seen.push(`first ${event.type}`) });
    // One tick: a write that fires the first watch, then a read that sets the watch again.
    const wrote = client.setData(path, Buffer.from('b'));
    const second = client.getData(path, {
      watch: (event) => seen.push(`second ${event.type}`),
    });
    busyWait(150);
    await Promise.all([wrote, second]);
    assert.equal((await second).data.toString(), 'b');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(seen, ['first NODE_DATA_CHANGED']);
    await client.setData(path, Buffer.from('c'));
    for (let wait = 0; seen.length < 2 && wait < 500; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.deepEqual(seen, ['first NODE_DATA_CHANGED', 'second NODE_DATA_CHANGED']);
  });
});
