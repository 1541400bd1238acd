import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import {
  EventLoopStallDetector,
  type EventLoopStall,
} from '../../src/state/event-loop-stall-detector.js';

const run = promisify(execFile);

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// Blocks the event loop on purpose: the stall is the thing under test.
function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

// A clock that counts its readings: one reading per start() and per check, so tests can wait
// for a number of checks instead of sleeping.
function countingClock(read: () => number = () => performance.now()): {
  now: () => number;
  readings: () => number;
} {
  let readings = 0;
  return {
    now: () => {
      readings += 1;
      return read();
    },
    readings: () => readings,
  };
}

// Sets the fake time and waits for the detector's next check, which reads it.
async function checkAt(clock: { readings: () => number }, setTime: () => void): Promise<void> {
  const before = clock.readings();
  setTime();
  await waitFor(() => clock.readings() > before);
}

void describe('EventLoopStallDetector', () => {
  void it('reports a 300 ms busy-wait once, as a stall of at least 250 ms', async () => {
    const stalls: EventLoopStall[] = [];
    const clock = countingClock();
    const detector = new EventLoopStallDetector({
      checkIntervalMs: 20,
      thresholdMs: 150,
      onStall: (info) => stalls.push(info),
      now: clock.now,
    });
    detector.start();
    try {
      await waitFor(() => clock.readings() >= 2); // running and checking
      busyWait(300);
      await waitFor(() => stalls.length >= 1);
      // A few more checks after the stall: it is reported once, not per check.
      const readingsAfterStall = clock.readings();
      await waitFor(() => clock.readings() >= readingsAfterStall + 3);
      assert.equal(stalls.length, 1);
      const [stall] = stalls;
      assert.ok(stall !== undefined && stall.stallMs >= 250, `stallMs ${stall?.stallMs}`);
      assert.ok(stall.stallMs < 2000, `stallMs ${stall.stallMs}`);
    } finally {
      detector.stop();
    }
  });

  void it('reports nothing while the event loop is idle', async () => {
    const stalls: EventLoopStall[] = [];
    const clock = countingClock();
    const detector = new EventLoopStallDetector({
      checkIntervalMs: 20,
      thresholdMs: 150,
      onStall: (info) => stalls.push(info),
      now: clock.now,
    });
    detector.start();
    try {
      await waitFor(() => clock.readings() >= 8);
      assert.deepEqual(stalls, []);
    } finally {
      detector.stop();
    }
  });

  void it('measures drift from the injected clock: late by more than the threshold is a stall', async () => {
    let time = 1000;
    const clock = countingClock(() => time);
    const stalls: EventLoopStall[] = [];
    const detector = new EventLoopStallDetector({
      checkIntervalMs: 5,
      thresholdMs: 100,
      onStall: (info) => stalls.push(info),
      now: clock.now,
    });
    detector.start(); // reads 1000
    try {
      // Exactly 100 ms late is not more than the threshold.
      await checkAt(clock, () => (time = 1000 + 5 + 100));
      // 400 ms late is a stall.
      await checkAt(clock, () => (time = 1105 + 5 + 400));
      assert.deepEqual(stalls, [{ stallMs: 400, detectedAt: 1510 }]);

      detector.setThresholdMs(1000);
      assert.equal(detector.thresholdMs, 1000);
      await checkAt(clock, () => (time = 1510 + 5 + 400));
      assert.equal(stalls.length, 1);
    } finally {
      detector.stop();
    }
  });

  void it('passes what onStall throws to onError and keeps checking', async () => {
    let time = 0;
    const clock = countingClock(() => time);
    const errors: unknown[] = [];
    let stalls = 0;
    const detector = new EventLoopStallDetector({
      checkIntervalMs: 5,
      thresholdMs: 10,
      onStall: () => {
        stalls += 1;
        throw new Error(`listener failed ${stalls}`);
      },
      onError: (error) => errors.push(error),
      now: clock.now,
    });
    detector.start();
    try {
      await checkAt(clock, () => (time = 100));
      await checkAt(clock, () => (time = 200));
      assert.equal(stalls, 2);
      assert.deepEqual(
        errors.map((e) => (e as Error).message),
        ['listener failed 1', 'listener failed 2'],
      );
    } finally {
      detector.stop();
    }
  });

  void it('start() twice is an error; stop() twice is a no-op; it can start again after stop()', () => {
    const detector = new EventLoopStallDetector({ thresholdMs: 100, onStall: () => undefined });
    assert.equal(detector.running, false);
    detector.start();
    assert.equal(detector.running, true);
    assert.throws(() => detector.start(), /already running/);
    detector.stop();
    detector.stop();
    assert.equal(detector.running, false);
    detector.start();
    detector[Symbol.dispose]();
    assert.equal(detector.running, false);
  });

  void it('rejects non-positive or non-finite durations', () => {
    const onStall = (): void => undefined;
    assert.throws(() => new EventLoopStallDetector({ thresholdMs: 0, onStall }), RangeError);
    assert.throws(
      () => new EventLoopStallDetector({ thresholdMs: 10, checkIntervalMs: NaN, onStall }),
      RangeError,
    );
    const detector = new EventLoopStallDetector({ thresholdMs: 10, onStall });
    assert.throws(() => detector.setThresholdMs(-1), /thresholdMs must be a positive number/);
    assert.equal(detector.thresholdMs, 10);
  });

  void it('does not keep the process alive', async () => {
    const moduleUrl = new URL('../../src/state/event-loop-stall-detector.js', import.meta.url).href;
    const source = `import { EventLoopStallDetector } from ${JSON.stringify(moduleUrl)};
new EventLoopStallDetector({ thresholdMs: 100, onStall: () => {} }).start();`;
    // With a ref'd timer the child would never exit; the timeout kills it and the call rejects.
    await run(process.execPath, ['--input-type=module', '-e', source], { timeout: 5000 });
  });
});
