import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freePort } from '@zkrecipes/testing';
import { createFramework } from '../../src/create-framework.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { RetryNTimes } from '../../src/retry/retry-n-times.js';

describe('one signal shared by many waits', () => {
  it('50 reads (25 watched) waiting for a connection under one signal: no MaxListenersExceededWarning, all reject with its reason at once', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    // Nothing listens there: every request waits for a connection.
    const client = createFramework({
      connectString: `127.0.0.1:${await freePort()}`,
      logger: silentLogger,
      retryPolicy: new RetryNTimes({ n: 0, sleepBetweenRetriesMs: 0 }),
    });
    await client.start();
    try {
      const controller = new AbortController();
      const { signal } = controller;
      const reads = Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? client.exists(`/shared-${i}`, { signal })
          : client.getData(`/shared-${i}`, { watch: () => undefined, signal }),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      const reason = new Error('caller gave up');
      const startMs = performance.now();
      controller.abort(reason);
      for (const outcome of await Promise.allSettled(reads)) {
        assert.ok(outcome.status === 'rejected' && outcome.reason === reason);
      }
      assert.ok(performance.now() - startMs < 500, 'rejected at once');
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message),
        [],
      );
    } finally {
      process.off('warning', onWarning);
      await client.close();
    }
  });
});
