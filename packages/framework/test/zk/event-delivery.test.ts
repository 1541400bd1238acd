import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// A new macrotask: every microtask queued before it has run.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { EventDelivery } from '../../src/zk/event-delivery.js';

/** Settles a reply through `delivery` and resumes a caller that awaits it through three hops. */
function replyWithDeepCaller(delivery: EventDelivery, seen: string[], name: string): Promise<void> {
  let settle = (): void => {};
  const reply = new Promise<void>((resolve) => (settle = resolve));
  const caller = (async () => {
    await reply;
    await Promise.resolve();
    await Promise.resolve();
    seen.push(`${name} continued`);
  })();
  delivery.inOrder(settle);
  return caller;
}

describe('EventDelivery', () => {
  it('delivers an event with no reply settled before it in this macrotask before the next macrotask', async () => {
    const delivery = new EventDelivery();
    const seen: string[] = [];
    setImmediate(() => seen.push('next macrotask'));
    delivery.push(() => seen.push('event'));
    seen.push('handler returned');
    await nextMacrotask();
    assert.deepEqual(seen, ['handler returned', 'event', 'next macrotask']);
  });

  it("delivers an event read after a reply in the same macrotask once the reply's caller has resumed", async () => {
    const delivery = new EventDelivery();
    const seen: string[] = [];
    const caller = replyWithDeepCaller(delivery, seen, 'first reply');
    delivery.push(() => seen.push('event'));
    const second = replyWithDeepCaller(delivery, seen, 'second reply');
    await Promise.all([caller, second]);
    await nextMacrotask();
    assert.deepEqual(seen, ['first reply continued', 'event', 'second reply continued']);
  });

  it('keeps the order of events delivered without waiting and a reply read after them', async () => {
    const delivery = new EventDelivery();
    const seen: string[] = [];
    delivery.push(() => seen.push('first event'));
    delivery.push(() => seen.push('second event'));
    await replyWithDeepCaller(delivery, seen, 'reply');
    assert.deepEqual(seen, ['first event', 'second event', 'reply continued']);
  });

  it("is not held back by a reply another connection's delivery settled in this macrotask", async () => {
    const other = new EventDelivery();
    const delivery = new EventDelivery();
    const seen: string[] = [];
    setImmediate(() => seen.push('next macrotask'));
    other.inOrder(() => seen.push('other reply'));
    delivery.push(() => seen.push('event'));
    await nextMacrotask();
    assert.deepEqual(seen, ['other reply', 'event', 'next macrotask']);
  });

  it('delivers without waiting again once a macrotask has passed since the last reply', async () => {
    const delivery = new EventDelivery();
    const seen: string[] = [];
    await replyWithDeepCaller(delivery, seen, 'reply');
    await nextMacrotask();
    setImmediate(() => seen.push('next macrotask'));
    delivery.push(() => seen.push('event'));
    await nextMacrotask();
    assert.deepEqual(seen, ['reply continued', 'event', 'next macrotask']);
  });

  it('queues an event pushed while earlier ones are being delivered behind all of them', async () => {
    const delivery = new EventDelivery();
    const seen: string[] = [];
    const first = replyWithDeepCaller(delivery, seen, 'first reply');
    delivery.push(() => {
      seen.push('first event');
      delivery.push(() => seen.push('event pushed by the first'));
    });
    const second = replyWithDeepCaller(delivery, seen, 'second reply');
    delivery.push(() => seen.push('second event'));
    await Promise.all([first, second]);
    for (let i = 0; i < 3; i++) await nextMacrotask();
    assert.deepEqual(seen, [
      'first reply continued',
      'first event',
      'second reply continued',
      'second event',
      'event pushed by the first',
    ]);
  });

  it('drops events not yet delivered when closed, and still settles replies', async () => {
    const delivery = new EventDelivery();
    const seen: string[] = [];
    delivery.push(() => seen.push('event'));
    delivery.close();
    const caller = replyWithDeepCaller(delivery, seen, 'reply');
    await caller;
    await nextMacrotask();
    assert.deepEqual(seen, ['reply continued']);
  });
});
