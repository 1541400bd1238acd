import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ClosedError, OperationTimeoutError } from '../../src/errors/zookeeper-error-classes.js';
import { InFlightRequests } from '../../src/zk/in-flight-requests.js';

/** A request whose reply the test gives (or never gives). */
function pendingRequest<T>(): {
  promise: Promise<T>;
  reply: (value: T) => void;
  fail: (error: unknown) => void;
} {
  let reply!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    reply = resolve;
    fail = reject;
  });
  return { promise, reply, fail };
}

const unchanged = (error: unknown): unknown => error;

describe('InFlightRequests', () => {
  it('settles with the reply; a failure goes through failureOf', async () => {
    const inFlight = new InFlightRequests(10_000);
    const answered = pendingRequest<string>();
    const tracked = inFlight.track(answered.promise, undefined, unchanged);
    answered.reply('ok');
    assert.equal(await tracked, 'ok');

    const failing = pendingRequest<string>();
    const mapped = new Error('mapped');
    const trackedFailure = inFlight.track(failing.promise, undefined, () => mapped);
    failing.fail(new Error('raw'));
    await assert.rejects(trackedFailure, (error) => error === mapped);
    inFlight.failAll(new ClosedError());
  });

  it("rejects with the signal's reason when it aborts, and ignores the reply that comes later", async () => {
    const inFlight = new InFlightRequests(10_000);
    const request = pendingRequest<string>();
    const controller = new AbortController();
    let mapped = 0;
    const tracked = inFlight.track(request.promise, controller.signal, (e) => {
      mapped++;
      return e;
    });
    const reason = new Error('given up');
    controller.abort(reason);
    await assert.rejects(tracked, (error) => error === reason);
    request.fail(new Error('late'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(mapped, 1, 'the late failure is mapped and dropped, not thrown anywhere');
    inFlight.failAll(new ClosedError());
  });

  it('a signal that has already aborted rejects at once', async () => {
    const inFlight = new InFlightRequests(10_000);
    const reason = new Error('before');
    const tracked = inFlight.track(
      pendingRequest<string>().promise,
      AbortSignal.abort(reason),
      unchanged,
    );
    await assert.rejects(tracked, (error) => error === reason);
    inFlight.failAll(new ClosedError());
  });

  it('an overdue request rejects with OperationTimeoutError on time', async () => {
    const inFlight = new InFlightRequests(100);
    // The deadline's timer does not keep a process alive (a socket waiting for the answer does).
    const keepAlive = setTimeout(() => undefined, 1_000);
    const startMs = performance.now();
    await assert.rejects(
      inFlight.track(pendingRequest<string>().promise, undefined, unchanged),
      OperationTimeoutError,
    );
    const tookMs = performance.now() - startMs;
    clearTimeout(keepAlive);
    assert.ok(tookMs >= 99 && tookMs < 300, `overdue after ${tookMs} ms`);
    inFlight.failAll(new ClosedError());
  });

  it('failAll fails every request in flight at once, and any tracked after it', async () => {
    const inFlight = new InFlightRequests(10_000);
    const closed = new ClosedError();
    const first = inFlight.track(pendingRequest<string>().promise, undefined, unchanged);
    const second = inFlight.track(
      pendingRequest<string>().promise,
      new AbortController().signal,
      unchanged,
    );
    inFlight.failAll(closed);
    await assert.rejects(first, (error) => error === closed);
    await assert.rejects(second, (error) => error === closed);
    await assert.rejects(
      inFlight.track(pendingRequest<string>().promise, undefined, unchanged),
      (error) => error === closed,
    );
  });
});
