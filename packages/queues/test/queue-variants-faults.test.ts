import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import {
  DistributedDelayQueue,
  DistributedIdQueue,
  DistributedPriorityQueue,
  PRESENCE_PREFIX,
  stringSerializer,
} from '../src/index.js';

const childScript = new URL('./fixtures/safe-consumer-process.js', import.meta.url).pathname;

type AnyQueue =
  DistributedPriorityQueue<string> | DistributedDelayQueue<string> | DistributedIdQueue<string>;

/** Each kind: how to make one on a client, and how to put item `i` (mixed priorities, times, ids). */
const KINDS = {
  priority: {
    make: (client: FrameworkClient, path: string, lockPath?: string, consumer?: Consumer) =>
      new DistributedPriorityQueue(client, path, {
        serializer: stringSerializer(),
        lockPath,
        consumer,
      }),
    put: (queue: AnyQueue, i: number) =>
      (queue as DistributedPriorityQueue<string>).put(String(i), (i % 7) - 3),
  },
  delay: {
    make: (client: FrameworkClient, path: string, lockPath?: string, consumer?: Consumer) =>
      new DistributedDelayQueue(client, path, {
        serializer: stringSerializer(),
        lockPath,
        consumer,
      }),
    // Due times spread over the next half second, some already past.
    put: (queue: AnyQueue, i: number) =>
      (queue as DistributedDelayQueue<string>).put(String(i), Date.now() + ((i * 37) % 600) - 100),
  },
  id: {
    make: (client: FrameworkClient, path: string, lockPath?: string, consumer?: Consumer) =>
      new DistributedIdQueue(client, path, { serializer: stringSerializer(), lockPath, consumer }),
    put: (queue: AnyQueue, i: number) =>
      (queue as DistributedIdQueue<string>).put(String(i), `id-${i % 10}`),
  },
} as const;

type Consumer = (item: string, context: { node: string }) => unknown;

/** Locks left in a lock path (presence nodes belong to live consumers). */
async function lockNodes(client: FrameworkClient, lockPath: string): Promise<string[]> {
  return (await client.getChildren(lockPath)).filter((name) => !name.startsWith(PRESENCE_PREFIX));
}

describe('priority, delay and id queues under faults (safe mode)', () => {
  let server: TestingServer;
  let clients: FrameworkClient[] = [];
  before(async () => {
    server = await TestingServer.start();
    // Sessions that outlive a server restart.
    clients = await Promise.all(
      Array.from({ length: 3 }, () => connect(server.connectString, { sessionTimeoutMs: 30_000 })),
    );
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
  });

  for (const [kind, { make, put }] of Object.entries(KINDS)) {
    it(`${kind}: 150 items, a consumer process SIGKILLed mid-item: each item succeeds exactly once, none lost`, async () => {
      const path = uniquePath(`${kind}-kill`);
      const lockPath = `${path}-locks`;
      const producer = make(clients[0]!, path);
      await producer.start();
      for (let i = 0; i < 150; i += 1) await put(producer, i);

      const successes = new Map<string, string[]>();
      const succeed = (item: string, by: string): void => {
        successes.set(item, [...(successes.get(item) ?? []), by]);
      };
      const child = spawn(
        process.execPath,
        [childScript, server.connectString, path, lockPath, '10', kind],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      let held: string | undefined;
      const ready = new Promise<void>((resolve, reject) => {
        child.once('exit', () => reject(new Error('the consumer process exited early')));
        createInterface({ input: child.stdout }).on('line', (line) => {
          const [word, item = ''] = line.split(' ');
          if (word === 'READY') resolve();
          if (word === 'DONE') succeed(item, 'child');
          if (word === 'HOLD') {
            held = item;
            child.kill('SIGKILL');
          }
        });
      });
      const consumers: AnyQueue[] = [];
      try {
        await ready;
        for (const [c, client] of clients.slice(1).entries()) {
          const byNode = new Map<string, string>();
          const queue = make(client, path, lockPath, (item, { node }) => {
            byNode.set(node, item);
          });
          queue.on('event', (event) => {
            if (event.type === 'consumed') succeed(byNode.get(event.path) ?? '?', `c${c}`);
          });
          consumers.push(queue);
        }
        await Promise.all(consumers.map((queue) => queue.start()));
        await exited;
        assert.ok(held !== undefined, 'the child held an item when it was killed');
        await waitFor(() => successes.size === 150, {
          timeoutMs: timing.ms(30_000),
          message: 'every item to succeed once',
        });
        await Promise.all(consumers.map((queue) => queue.close()));
        assert.deepEqual(
          [...successes].filter(([, by]) => by.length !== 1),
          [],
        );
        assert.notEqual(successes.get(held)?.[0], 'child');
        assert.deepEqual(await clients[0]!.getChildren(path), []);
        assert.deepEqual(await lockNodes(clients[0]!, lockPath), []);
      } finally {
        child.kill('SIGKILL');
        await exited;
        await producer.close();
        await Promise.all(consumers.map((queue) => queue.close()));
      }
    });
  }

  it('server restarted while consuming: every item of each kind consumed exactly once, none lost', async (t) => {
    const runs = Object.entries(KINDS).map(([kind, { make, put }]) => {
      const path = uniquePath(`${kind}-restart`);
      const calls: string[] = [];
      const consumed: string[] = [];
      const byNode = new Map<string, string>();
      const producer = make(clients[0]!, path);
      const consumer = make(clients[1]!, path, `${path}-locks`, async (item, { node }) => {
        calls.push(item);
        byNode.set(node, item);
        // Each item takes a while (pacing, not synchronisation): the outage meets a backlog.
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      consumer.on('event', (event) => {
        if (event.type === 'consumed') consumed.push(byNode.get(event.path) ?? '?');
      });
      return { kind, path, put, producer, consumer, calls, consumed };
    });
    try {
      for (const run of runs) {
        await run.producer.start();
        for (let i = 0; i < 100; i += 1) await run.put(run.producer, i);
      }
      await Promise.all(runs.map((run) => run.consumer.start()));
      await waitFor(() => runs.every((run) => run.consumed.length >= 10), {
        message: 'consuming under way',
      });
      await server.stop();
      const atStop = runs.map((run) => run.consumed.length);
      t.diagnostic(`consumed when the server stopped: ${atStop.join(', ')} of 100 each`);
      assert.ok(
        atStop.every((count) => count < 100),
        'the outage met every queue mid-way',
      );
      await server.restart();
      await waitFor(() => runs.every((run) => run.consumed.length === 100), {
        timeoutMs: timing.ms(60_000),
        message: 'every item after the restart',
      });
      for (const run of runs) {
        assert.equal(new Set(run.consumed).size, 100, `${run.kind}: consumed once each`);
        assert.equal(new Set(run.calls).size, 100, `${run.kind}: none lost`);
        assert.equal(run.calls.length, 100, `${run.kind}: none given to the consumer twice`);
        assert.deepEqual(await clients[0]!.getChildren(run.path), [], run.kind);
      }
    } finally {
      await Promise.all(runs.flatMap((run) => [run.producer.close(), run.consumer.close()]));
    }
  });
});
