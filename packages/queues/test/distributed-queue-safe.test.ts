import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import {
  FaultProxy,
  killSession,
  TestingServer,
  timing,
  uniquePath,
  waitFor,
} from '@zkrecipes/testing';
import { connect } from '@zkrecipes/test-support';
import {
  DistributedQueue,
  ErrorMode,
  PRESENCE_PREFIX,
  stringSerializer,
  type QueueEvent,
} from '../src/index.js';

const childScript = new URL('./fixtures/safe-consumer-process.js', import.meta.url).pathname;

/** Locks and presence nodes left in a lock path (presence nodes belong to live consumers). */
async function lockNodes(client: FrameworkClient, lockPath: string): Promise<string[]> {
  return (await client.getChildren(lockPath)).filter((name) => !name.startsWith(PRESENCE_PREFIX));
}

describe('DistributedQueue in safe mode (lockPath)', () => {
  let server: TestingServer;
  let clients: FrameworkClient[] = [];
  before(async () => {
    server = await TestingServer.start();
    clients = await Promise.all(Array.from({ length: 4 }, () => connect(server.connectString)));
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
  });

  const producerFor = async (path: string): Promise<DistributedQueue<string>> => {
    const producer = new DistributedQueue(clients[0]!, path, { serializer: stringSerializer() });
    await producer.start();
    return producer;
  };

  it('4 consumers, 1000 items, one SIGKILLed mid-item: each item succeeds exactly once, none lost', async () => {
    const path = uniquePath('safe');
    const lockPath = `${path}-locks`;
    await using producer = await producerFor(path);
    for (let i = 0; i < 1000; i += 1) await producer.put(String(i));

    const successes = new Map<string, string[]>();
    const succeed = (item: string, by: string): void => {
      successes.set(item, [...(successes.get(item) ?? []), by]);
    };
    const processing = new Set<string>();
    const overlaps: string[] = [];

    // The consumer in its own process holds its 20th item until it is killed.
    const child = spawn(
      process.execPath,
      [childScript, server.connectString, path, lockPath, '20'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let held: string | undefined;
    let childDead = false;
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
    try {
      await ready;
      const consumers = clients.slice(1).map((client, c) => {
        const byNode = new Map<string, string>();
        const queue = new DistributedQueue(client, path, {
          serializer: stringSerializer(),
          lockPath,
          consumer: async (item, { node }) => {
            if (processing.has(item)) overlaps.push(item);
            if (item === held && !childDead) overlaps.push(`${item} (before the holder died)`);
            processing.add(item);
            byNode.set(node, item);
            await new Promise((resolve) => setImmediate(resolve));
            processing.delete(item);
          },
        });
        queue.on('event', (event) => {
          if (event.type === 'consumed') succeed(byNode.get(event.path) ?? '?', `c${c}`);
        });
        return queue;
      });
      await Promise.all(consumers.map((queue) => queue.start()));
      await exited;
      childDead = true;
      assert.ok(held !== undefined, 'the child held an item when it was killed');
      await waitFor(() => successes.size === 1000, {
        timeoutMs: 30_000,
        message: 'every item to succeed once',
      });
      await Promise.all(consumers.map((queue) => queue.close()));
      const doubles = [...successes].filter(([, by]) => by.length !== 1);
      assert.deepEqual(doubles, []);
      assert.deepEqual(overlaps, []);
      // The held item was redelivered to (and finished by) one of the survivors.
      assert.notEqual(successes.get(held)?.[0], 'child');
      assert.deepEqual(await clients[0]!.getChildren(path), []);
      assert.deepEqual(await lockNodes(clients[0]!, lockPath), []);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });

  it("a consumer's session killed while it holds an item: the item is redelivered, the late finish refused", async () => {
    const path = uniquePath('safe-kill');
    const lockPath = `${path}-locks`;
    // Short session: see the note on killSession races in the barriers' tests.
    const victimClient = await connect(server.connectString, { sessionTimeoutMs: 4000 });
    try {
      let release = (): void => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let victimSignal: AbortSignal | undefined;
      const victimEvents: QueueEvent[] = [];
      const victim = new DistributedQueue(victimClient, path, {
        serializer: stringSerializer(),
        lockPath,
        consumer: async (_item, { signal }) => {
          victimSignal = signal;
          await gate;
        },
      });
      victim.on('event', (event) => victimEvents.push(event));
      await using producer = await producerFor(path);
      await producer.put('job');
      await victim.start();
      await waitFor(() => victimSignal, { message: 'the victim to hold the item' });

      const rescued: string[] = [];
      await using rescuer = new DistributedQueue(clients[1]!, path, {
        serializer: stringSerializer(),
        lockPath,
        consumer: (item) => void rescued.push(item),
      });
      await rescuer.start();
      assert.deepEqual(rescued, []);
      await killSession(victimClient, server.connectString);
      await waitFor(() => rescued.length === 1, {
        timeoutMs: timing.ms(15_000),
        message: 'the item to be redelivered',
      });
      assert.equal(victimSignal?.aborted, true);
      release();
      await waitFor(() => victimEvents.some((event) => event.type === 'lockLost'), {
        message: 'the victim to learn its lock was lost',
      });
      assert.equal(
        victimEvents.some((event) => event.type === 'consumed'),
        false,
      );
      await waitFor(async () => (await clients[0]!.getChildren(path)).length === 0, {
        message: 'the rescuer to finish the item',
      });
      assert.deepEqual(rescued, ['job']);
      await victim.close();
      assert.deepEqual(await lockNodes(clients[0]!, lockPath), []);
    } finally {
      await victimClient.close();
    }
  });

  it('a dropped connection mid-item (same session): the signal warns, the item still finishes once', async () => {
    const path = uniquePath('safe-drop');
    const proxy = await FaultProxy.start({ targetPort: server.port });
    const proxied = await connect(proxy.connectString, { sessionTimeoutMs: 10_000 });
    try {
      const states: string[] = [];
      const subscription = proxied.connectionStates.subscribe((state) => states.push(state));
      let release = (): void => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let signal: AbortSignal | undefined;
      const events: QueueEvent[] = [];
      await using queue = new DistributedQueue(proxied, path, {
        serializer: stringSerializer(),
        lockPath: `${path}-locks`,
        consumer: async (_item, context) => {
          signal = context.signal;
          await gate;
        },
      });
      queue.on('event', (event) => events.push(event));
      await using producer = await producerFor(path);
      await producer.put('job');
      await queue.start();
      await waitFor(() => signal, { message: 'the consumer to hold the item' });
      proxy.drop();
      await waitFor(() => states.includes('SUSPENDED'), { message: 'SUSPENDED' });
      assert.equal(signal?.aborted, true);
      proxy.heal();
      await waitFor(() => states.includes('RECONNECTED'), { message: 'RECONNECTED' });
      release();
      await waitFor(() => events.some((event) => event.type === 'consumed'), {
        message: 'the item to be finished',
      });
      assert.deepEqual(
        events.map((event) => event.type),
        ['consumed'],
      );
      assert.deepEqual(await clients[0]!.getChildren(path), []);
      subscription.unsubscribe();
    } finally {
      await proxied.close();
      await proxy.close();
    }
  });

  it('ErrorMode.REQUEUE puts a failed item back at the end; ErrorMode.DELETE drops it', async () => {
    for (const errorMode of [ErrorMode.REQUEUE, ErrorMode.DELETE]) {
      const path = uniquePath('safe-error');
      const attempts: string[] = [];
      const events: QueueEvent[] = [];
      await using producer = await producerFor(path);
      await producer.put('fails-once');
      await producer.put('fine');
      await using consumer = new DistributedQueue(clients[1]!, path, {
        serializer: stringSerializer(),
        lockPath: `${path}-locks`,
        errorMode,
        consumer: (item) => {
          attempts.push(item);
          if (item === 'fails-once' && attempts.filter((a) => a === item).length === 1) {
            throw new Error('first attempt fails');
          }
        },
      });
      consumer.on('event', (event) => events.push(event));
      await consumer.start();
      const expected =
        errorMode === ErrorMode.REQUEUE
          ? ['fails-once', 'fine', 'fails-once']
          : ['fails-once', 'fine'];
      await waitFor(async () => (await clients[0]!.getChildren(path)).length === 0, {
        message: 'an empty queue',
      });
      assert.deepEqual(attempts, expected);
      const failure = events.find((event) => event.type === 'consumerError');
      assert.equal(failure?.type === 'consumerError' && failure.action, errorMode.toLowerCase());
      if (failure?.type === 'consumerError' && errorMode === ErrorMode.REQUEUE) {
        assert.match(failure.requeuedAs ?? '', /\/queue-0000000002$/);
      }
    }
  });

  it('leaving an iterator loop hands the held item back; the next iterator gets it again', async () => {
    const path = uniquePath('safe-iterate');
    const lockPath = `${path}-locks`;
    await using producer = await producerFor(path);
    await producer.putMulti(['a', 'b']);
    await producer.put('c');
    await using queue = new DistributedQueue(clients[1]!, path, {
      serializer: stringSerializer(),
      lockPath,
    });
    await queue.start();
    for await (const item of queue.items()) {
      assert.equal(item, 'a');
      break; // 'a' and 'b' share a node: the whole node goes back
    }
    assert.deepEqual(await lockNodes(clients[0]!, lockPath), []);
    const seen: string[] = [];
    for await (const item of queue.items()) {
      seen.push(item);
      if (item === 'c') break; // 'c' is handed back too
    }
    assert.deepEqual(seen, ['a', 'b', 'c']);
    // The node of 'a' and 'b' is done; 'c' is queued again.
    assert.equal((await clients[0]!.getChildren(path)).length, 1);
    assert.deepEqual(await lockNodes(clients[0]!, lockPath), []);
  });

  it('close() hands back an item whose consumer outlives closeTimeoutMs', async () => {
    const path = uniquePath('safe-close');
    const lockPath = `${path}-locks`;
    await using producer = await producerFor(path);
    await producer.put('slow');
    let entered: AbortSignal | undefined;
    const stuck = new DistributedQueue(clients[1]!, path, {
      serializer: stringSerializer(),
      lockPath,
      closeTimeoutMs: 50,
      consumer: (_item, { signal }) => {
        entered = signal;
        return new Promise(() => undefined);
      },
    });
    await stuck.start();
    await waitFor(() => entered !== undefined, { message: 'the consumer to start' });
    await stuck.close();
    // The consumer still at work learns that its item was handed back.
    assert.equal(entered?.aborted, true);
    assert.deepEqual(await clients[0]!.getChildren(lockPath), []);
    const again: string[] = [];
    await using next = new DistributedQueue(clients[2]!, path, {
      serializer: stringSerializer(),
      lockPath,
      consumer: (item) => void again.push(item),
    });
    await next.start();
    await waitFor(() => again.length === 1, { message: 'the item to be taken again' });
    assert.deepEqual(again, ['slow']);
  });

  it('concurrency: several callbacks at once on one queue, never the same item twice', async () => {
    const path = uniquePath('safe-concurrent');
    await using producer = await producerFor(path);
    for (let i = 0; i < 200; i += 1) await producer.put(String(i));
    const active = new Set<string>();
    let maxActive = 0;
    const done: string[] = [];
    await using queue = new DistributedQueue(clients[1]!, path, {
      serializer: stringSerializer(),
      lockPath: `${path}-locks`,
      concurrency: 4,
      consumer: async (item) => {
        assert.equal(active.has(item), false);
        active.add(item);
        maxActive = Math.max(maxActive, active.size);
        await new Promise((resolve) => setTimeout(resolve, 1));
        active.delete(item);
        done.push(item);
      },
    });
    await queue.start();
    await waitFor(() => done.length === 200, { message: '200 items' });
    assert.equal(new Set(done).size, 200);
    assert.ok(maxActive > 1 && maxActive <= 4, `max concurrent callbacks ${maxActive}`);
  });
});
