// SimpleDistributedQueue's metrics on a real server, read with the OpenTelemetry SDK's
// in-memory reader: the same put/consumed counters and put duration as DistributedQueue, and
// a take duration whose outcome tells an item from an empty look, a wait that ran out and an
// error.
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { TestingServer, uniquePath } from '@zkrecipes/testing';
import { connect, OtelCapture } from '@zkrecipes/test-support';
import { NoSuchElementError, SimpleDistributedQueue } from '../src/index.js';

const SIMPLE = { 'zkrecipes.recipe': 'SimpleDistributedQueue' };

describe('SimpleDistributedQueue telemetry', () => {
  let server: TestingServer;
  const otel = new OtelCapture();
  const otelPaths = new OtelCapture();
  let a: FrameworkClient;
  let b: FrameworkClient;
  let withPaths: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    const telemetry = { meterProvider: otel.meterProvider, tracerProvider: otel.tracerProvider };
    [a, b, withPaths] = await Promise.all([
      connect(server.connectString, telemetry),
      connect(server.connectString),
      connect(server.connectString, {
        meterProvider: otelPaths.meterProvider,
        tracerProvider: otelPaths.tracerProvider,
        telemetryPaths: true,
      }),
    ]);
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close(), withPaths?.close()]);
    await otel.shutdown();
    await otelPaths.shutdown();
    await server?.close();
  });

  it('20 offers and 20 takes, a blocking take, a timed-out take, empty looks, an abort: counts exact, durations plausible', async () => {
    const path = uniquePath('simple-telemetry');
    await using queue = new SimpleDistributedQueue(a, path);
    for (let i = 0; i < 20; i += 1) await queue.offer(Buffer.from(`${i}`));
    // The three ways to take an item, each one an `ok` take.
    for (let i = 0; i < 10; i += 1) assert.equal((await queue.take()).toString(), `${i}`);
    for (let i = 10; i < 15; i += 1) assert.equal((await queue.poll())?.toString(), `${i}`);
    for (let i = 15; i < 20; i += 1) assert.equal((await queue.remove()).toString(), `${i}`);

    // A blocking take on the empty queue: another client offers 200 ms later. The delay is the
    // wait being measured, not a synchronisation: the take waits for the item however long.
    const blockedAt = performance.now();
    const blocking = queue.take();
    await delay(200);
    await new SimpleDistributedQueue(b, path).offer(Buffer.from('late'));
    assert.equal((await blocking).toString(), 'late');
    const blockedMs = performance.now() - blockedAt;

    // A take whose wait runs out, two empty looks, and a take aborted while it waits.
    const timedOutAt = performance.now();
    assert.equal(await queue.take({ timeoutMs: 200 }), null);
    const timedOutMs = performance.now() - timedOutAt;
    assert.equal(await queue.poll(), null);
    await assert.rejects(queue.remove(), NoSuchElementError);
    const abort = new AbortController();
    const aborted = queue.take({ signal: abort.signal });
    abort.abort(new Error('caller gave up'));
    await assert.rejects(aborted, /caller gave up/);

    // Counts: 20 offers by this client (the late one was client b's), 21 items taken.
    assert.equal(await otel.total('zkrecipes.queue.items.put', SIMPLE), 20);
    assert.equal(await otel.total('zkrecipes.queue.items.consumed', SIMPLE), 21);
    const [puts, ...otherPuts] = await otel.points('zkrecipes.queue.put.duration', SIMPLE);
    assert.deepEqual(otherPuts, [], 'every offer succeeded');
    assert.equal(puts?.attributes['zkrecipes.queue.outcome'], 'ok');
    assert.equal(puts.count, 20);
    assert.ok(puts.min! > 0 && puts.max! < 5, `offers took ${puts.min}..${puts.max} s`);

    const takes = async (outcome: string) =>
      otel.points('zkrecipes.queue.take.duration', {
        ...SIMPLE,
        'zkrecipes.queue.outcome': outcome,
      });
    const [ok] = await takes('ok');
    assert.equal(ok?.count, 21);
    // The slowest take is the blocking one: it includes the 200 ms until the item came.
    assert.ok(ok.min! > 0, `fastest take ${ok.min} s`);
    assert.ok(
      ok.max! >= 0.195 && ok.max! <= blockedMs / 1000 + 0.001,
      `slowest take ${ok.max} s, blocked ${blockedMs} ms`,
    );
    const [timedOut] = await takes('timed_out');
    assert.equal(timedOut?.count, 1);
    assert.ok(
      timedOut.value >= 0.195 && timedOut.value <= timedOutMs / 1000 + 0.001,
      `timed-out take ${timedOut.value} s, measured ${timedOutMs} ms`,
    );
    const [empty] = await takes('empty');
    assert.equal(empty?.count, 2, 'poll() and remove() on the empty queue');
    assert.ok(empty.max! < 5, `empty looks took up to ${empty.max} s`);
    const [failed] = await takes('error');
    assert.equal(failed?.count, 1, 'the aborted take');
    assert.equal(failed.attributes['error.type'], 'Error', "the class of the signal's reason");
    assert.equal(ok.attributes['error.type'], undefined, 'only failures have an error.type');
    // Without telemetryPaths the queue's path is no attribute (bounded cardinality).
    for (const point of [puts, ok, timedOut, empty, failed]) {
      assert.equal(point.attributes['zkrecipes.path'], undefined);
    }
  });

  it('names the path only with telemetryPaths', async () => {
    const path = uniquePath('simple-telemetry-path');
    await using queue = new SimpleDistributedQueue(withPaths, path);
    await queue.offer(Buffer.from('x'));
    assert.deepEqual(await queue.take(), Buffer.from('x'));
    const named = { ...SIMPLE, 'zkrecipes.path': path };
    assert.equal(await otelPaths.total('zkrecipes.queue.items.put', named), 1);
    assert.equal(await otelPaths.total('zkrecipes.queue.items.consumed', named), 1);
    assert.equal(await otelPaths.total('zkrecipes.queue.take.duration', named), 1);
  });
});
