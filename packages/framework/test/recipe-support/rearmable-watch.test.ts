import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RearmableWatch } from '../../src/recipe-support/rearmable-watch.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';

const deleted: WatchedEvent = { type: 'NODE_DELETED', path: '/n' };

describe('RearmableWatch', () => {
  it('is armed once the read succeeds, and needs no second watch until it fires', () => {
    const fired: boolean[] = [];
    const watch = new RearmableWatch((_, current) => fired.push(current));
    const attempt = watch.next()!;
    assert.equal(watch.armed, false);
    attempt.confirm();
    assert.equal(watch.armed, true);
    assert.equal(watch.next(), undefined);
    attempt.watcher(deleted);
    assert.equal(watch.armed, false);
    assert.deepEqual(fired, [true]);
    assert.notEqual(watch.next(), undefined);
  });

  it("its event, delivered after the read resumed (the client's ordering contract), disarms it as the current watch", () => {
    const fired: boolean[] = [];
    const watch = new RearmableWatch((_, current) => fired.push(current));
    const attempt = watch.next()!;
    attempt.confirm();
    attempt.watcher(deleted);
    assert.equal(watch.armed, false);
    assert.deepEqual(fired, [true]);
    assert.notEqual(watch.next(), undefined, 'the next read sets a new watch');
  });

  it('a forced watch supersedes the older ones: an older one firing late leaves the newer armed', () => {
    const fired: boolean[] = [];
    const watch = new RearmableWatch((_, current) => fired.push(current));
    const old = watch.next()!;
    old.confirm();
    const replacing = watch.next(true)!; // forced: a new node, a new watch
    assert.equal(watch.armed, false);
    replacing.confirm();
    old.watcher(deleted);
    assert.equal(watch.armed, true);
    old.confirm(); // a late confirmation of the old read changes nothing
    assert.deepEqual(fired, [false]);
    watch.disarm();
    assert.equal(watch.armed, false);
  });

  it('two readers that both found it unarmed: the last confirmed is armed, and only its event disarms', () => {
    const fired: boolean[] = [];
    const watch = new RearmableWatch((_, current) => fired.push(current));
    const first = watch.next()!;
    const second = watch.next()!;
    first.confirm();
    assert.equal(watch.armed, true);
    second.confirm();
    first.watcher(deleted);
    assert.equal(watch.armed, true, 'the armed watch is the second one');
    second.watcher(deleted);
    assert.equal(watch.armed, false);
    assert.deepEqual(fired, [true, true]);
    assert.equal(first.event, 'NODE_DELETED');
  });

  it('a watch that fired before its read was confirmed does not arm', () => {
    const watch = new RearmableWatch(() => undefined);
    const attempt = watch.next()!;
    assert.equal(attempt.event, undefined);
    attempt.watcher(deleted);
    attempt.confirm();
    assert.equal(watch.armed, false);
  });
});
