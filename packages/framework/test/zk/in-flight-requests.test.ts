import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ClosedError, OperationTimeoutError } from '../../src/errors/zookeeper-error-classes.js';
import { InFlightRequests } from '../../src/zk/in-flight-requests.js';

const unchanged = (error: unknown): unknown => error;

describe('InFlightRequests', () => {
  it('settles with the reply; a failure goes through failureOf', async () => {
    const inFlight = new InFlightRequests(10_000);
    const answered = inFlight.start<string>(undefined, unchanged);
    answered.resolve('ok');
    assert.equal(await answered.promise, 'ok');

    const mapped = new Error('mapped');
    const failing = inFlight.start<string>(undefined, () => mapped);
    failing.reject(new Error('raw'));
    await assert.rejects(failing.promise, (error) => error === mapped);
    inFlight.failAll(new ClosedError());
  });

  it("rejects with the signal's reason when it aborts, and ignores the reply that comes later", async () => {
    const inFlight = new InFlightRequests(10_000);
    const controller = new AbortController();
    let mapped = 0;
    const request = inFlight.start<string>(controller.signal, (e) => {
      mapped++;
      return e;
    });
    const reason = new Error('given up');
    controller.abort(reason);
    await assert.rejects(request.promise, (error) => error === reason);
    request.reject(new Error('late'));
    request.resolve('late');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(mapped, 0, 'the late failure is dropped, not thrown anywhere');
    inFlight.failAll(new ClosedError());
  });

  it('a signal that has already aborted rejects at once', async () => {
    const inFlight = new InFlightRequests(10_000);
    const reason = new Error('before');
    const request = inFlight.start<string>(AbortSignal.abort(reason), unchanged);
    await assert.rejects(request.promise, (error) => error === reason);
    inFlight.failAll(new ClosedError());
  });

  it('an overdue request rejects with OperationTimeoutError on time', async () => {
    const inFlight = new InFlightRequests(100);
    // The deadline's timer does not keep a process alive (a socket waiting for the answer does).
    const keepAlive = setTimeout(() => undefined, 1_000);
    const startMs = performance.now();
    await assert.rejects(
      inFlight.start<string>(undefined, unchanged).promise,
      OperationTimeoutError,
    );
    const tookMs = performance.now() - startMs;
    clearTimeout(keepAlive);
    assert.ok(tookMs >= 99 && tookMs < 300, `overdue after ${tookMs} ms`);
    inFlight.failAll(new ClosedError());
  });

  it('failAll fails every request in flight at once, and any started after it', async () => {
    const inFlight = new InFlightRequests(10_000);
    const closed = new ClosedError();
    const first = inFlight.start<string>(undefined, unchanged);
    const second = inFlight.start<string>(new AbortController().signal, unchanged);
    inFlight.failAll(closed);
    await assert.rejects(first.promise, (error) => error === closed);
    await assert.rejects(second.promise, (error) => error === closed);
    await assert.rejects(
      inFlight.start<string>(undefined, unchanged).promise,
      (error) => error === closed,
    );
  });
});
