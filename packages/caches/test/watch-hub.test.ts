import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WatchedEvent } from '@zkrecipes/framework';
import { WatchHub, type WatchToken } from '../src/watch-hub.js';

const changed: WatchedEvent = { type: 'NODE_DATA_CHANGED', path: '/n' };

// The hub's bookkeeping with the wire client played by hand: a watcher handed out is what the
// client would keep; calling it is the server's event (after the read's confirm, as the
// client's ordering contract delivers it). The server side is covered by the cache tests.
describe('WatchHub', () => {
  it('many caches on one path: one watcher handed out, every subscriber hears its event with its token', () => {
    const hub = new WatchHub();
    const heard: string[] = [];
    const off = ['a', 'b', 'c'].map((name) =>
      hub.subscribe('node', '/n', (event, token) =>
        heard.push(`${name} ${event.type} ${token.czxid}`),
      ),
    );
    const first = hub.arm('node', '/n');
    assert.ok(first);
    first.token.czxid = 7n;
    hub.confirm(first.token);
    assert.equal(hub.isArmed('node', '/n'), true);
    assert.equal(hub.arm('node', '/n'), undefined, 'armed: no second watcher');
    assert.equal(hub.isArmed('children', '/n'), false, 'kinds are apart');
    first.watcher(changed);
    assert.deepEqual(heard, [
      'a NODE_DATA_CHANGED 7',
      'b NODE_DATA_CHANGED 7',
      'c NODE_DATA_CHANGED 7',
    ]);
    assert.equal(hub.isArmed('node', '/n'), false);
    assert.equal(first.token.event, 'NODE_DATA_CHANGED');
    for (const unsubscribe of off) unsubscribe();
  });

  it('a closed cache is not reached by a watcher the client still holds; a recreated cache finds the path armed and adds nothing', () => {
    const hub = new WatchHub();
    const heard: string[] = [];
    const closeOld = hub.subscribe('children', '/p', () => heard.push('old'));
    const kept = hub.arm('children', '/p');
    assert.ok(kept);
    hub.confirm(kept.token);
    closeOld();
    assert.equal(hub.isArmed('children', '/p'), true, 'the server still holds the watch');
    const closeNew = hub.subscribe('children', '/p', () => heard.push('new'));
    assert.equal(hub.arm('children', '/p'), undefined, 'the recreated cache adds no watcher');
    kept.watcher(changed);
    assert.deepEqual(heard, ['new']);
    closeNew();
  });

  it('a read in flight while its last cache closes: its late confirmation still arms the path for the next cache, whose event it delivers once', () => {
    const hub = new WatchHub();
    const heard: string[] = [];
    const closeOld = hub.subscribe('node', '/q', () => heard.push('old'));
    const inFlight = hub.arm('node', '/q');
    assert.ok(inFlight);
    closeOld(); // not armed yet: the entry goes
    const closeNew = hub.subscribe('node', '/q', () => heard.push('new'));
    hub.confirm(inFlight.token);
    assert.equal(hub.isArmed('node', '/q'), true);
    assert.equal(hub.arm('node', '/q'), undefined, 'the new cache adds no watcher');
    inFlight.watcher(changed);
    assert.deepEqual(heard, ['new']);
    assert.equal(hub.isArmed('node', '/q'), false);
    closeNew();
  });

  it('two reads in flight across a cache closing: the event reaches the new cache once', () => {
    const hub = new WatchHub();
    const heard: WatchToken[] = [];
    const closeOld = hub.subscribe('node', '/r', () => undefined);
    const old = hub.arm('node', '/r');
    assert.ok(old);
    closeOld();
    const closeNew = hub.subscribe('node', '/r', (_, token) => heard.push(token));
    const fresh = hub.arm('node', '/r');
    assert.ok(fresh, 'nothing armed yet: the new cache reads with a watch');
    hub.confirm(fresh.token);
    hub.confirm(old.token); // the same server watch: already armed, so the old one stays silent
    old.watcher(changed);
    fresh.watcher(changed);
    assert.deepEqual(heard, [fresh.token]);
    closeNew();
  });

  it('a watch that fired before its read was confirmed does not arm', () => {
    const hub = new WatchHub();
    const attempt = hub.arm('node', '/s');
    assert.ok(attempt);
    attempt.watcher({ type: 'NODE_DELETED', path: '/s' });
    hub.confirm(attempt.token);
    assert.equal(hub.isArmed('node', '/s'), false);
    assert.equal(attempt.token.event, 'NODE_DELETED');
  });
});
