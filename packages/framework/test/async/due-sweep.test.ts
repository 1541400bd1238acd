import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';

import { DueSweep } from '../../src/async/due-sweep.js';

describe('DueSweep', () => {
  it('runs a callback once its delay passed, at most a sweep late; a cancelled one never', async () => {
    const sweep = new DueSweep(10);
    const ran: string[] = [];
    const startedAt = performance.now();
    let ranAfterMs = 0;
    sweep.after(30, () => {
      ranAfterMs = performance.now() - startedAt;
      ran.push('due');
    });
    const cancel = sweep.after(30, () => ran.push('cancelled'));
    sweep.after(5_000, () => ran.push('later'));
    cancel();
    await sleep(80);
    assert.deepEqual(ran, ['due']);
    assert.ok(ranAfterMs >= 30, `ran after ${ranAfterMs} ms`);
    assert.ok(ranAfterMs < 30 + 10 + 30, `ran after ${ranAfterMs} ms (sweep 10 ms, slack 30)`);
    sweep.stop();
  });

  it('stop drops what is due; after() starts it again', async () => {
    const sweep = new DueSweep(5);
    const ran: string[] = [];
    sweep.after(10, () => ran.push('dropped'));
    sweep.stop();
    sweep.after(10, () => ran.push('again'));
    await sleep(50);
    assert.deepEqual(ran, ['again']);
    sweep.stop();
  });
});
