import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstValueFrom } from 'rxjs';

import { isInvalidArgument } from '../../src/errors/predicates.js';
import type { ConnectionState } from '../../src/state/connection-state.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';
import { fakeSetup } from './fake-context.js';

/** A watcher that records its calls and resolves on the first. */
function recordingWatcher(): {
  watch: (event: WatchedEvent) => void;
  events: WatchedEvent[];
  first: Promise<WatchedEvent>;
} {
  const events: WatchedEvent[] = [];
  let resolve: (event: WatchedEvent) => void = () => undefined;
  const first = new Promise<WatchedEvent>((r) => (resolve = r));
  return {
    events,
    first,
    watch: (event) => {
      events.push(event);
      resolve(event);
    },
  };
}

describe('FrameworkClient', () => {
  describe('lifecycle and state', () => {
    it('reports LATENT, STARTED, STOPPED and closes through the lifecycle once per call', async () => {
      const { client, lifecycle } = await fakeSetup({ start: false });
      assert.equal(client.state, 'LATENT');
      await client.start();
      assert.equal(client.state, 'STARTED');
      await client[Symbol.asyncDispose]();
      assert.equal(client.state, 'STOPPED');
      assert.equal(lifecycle.closeCalls, 1);
    });

    it('exposes the session and connection state of the context', async () => {
      const { client, zk } = await fakeSetup();
      assert.equal(client.sessionId, zk.sessionId);
      assert.equal(client.sessionCredentials()?.sessionId, zk.sessionId);
      assert.equal(client.connectionState, 'CONNECTED');
      assert.equal(await firstValueFrom(client.connectionStates), 'CONNECTED');
      assert.equal(await client.blockUntilConnected({ timeoutMs: 10 }), true);
    });
  });

  describe('stateChanged listeners', () => {
    it('are called asynchronously, in order, and a throwing one neither stops the next nor the client', async () => {
      const { client, unhandled, emitState } = await fakeSetup();
      const boom = new Error('listener bug');
      const calls: string[] = [];
      client.on('stateChanged', (state) => {
        calls.push(`first:${state}`);
        throw boom;
      });
      const secondSaw = new Promise<ConnectionState>((resolve) =>
        client.on('stateChanged', (state) => {
          calls.push(`second:${state}`);
          resolve(state);
        }),
      );
      emitState('SUSPENDED');
      assert.deepEqual(calls, [], 'not called inside the emitter');
      assert.equal(await secondSaw, 'SUSPENDED');
      assert.deepEqual(calls, ['first:SUSPENDED', 'second:SUSPENDED']);
      assert.deepEqual(unhandled, [{ error: boom, context: 'stateChanged listener' }]);
      // The client still works.
      assert.notEqual(await client.exists('/'), null);
    });

    it('a rejected promise from a listener goes to unhandledErrors', async () => {
      const { client, emitState } = await fakeSetup();
      const boom = new Error('async listener bug');
      const reported = firstValueFrom(client.unhandledErrors);
      client.on('stateChanged', () => Promise.reject(boom));
      emitState('LOST');
      assert.deepEqual(await reported, { error: boom, context: 'stateChanged listener' });
    });

    it('stop after unsubscribing, even for changes already queued', async () => {
      const { client, emitState } = await fakeSetup();
      const seen: ConnectionState[] = [];
      const off = client.on('stateChanged', (state) => seen.push(state));
      const last = new Promise<void>((resolve) => client.on('stateChanged', () => resolve()));
      emitState('SUSPENDED');
      off();
      await last;
      assert.deepEqual(seen, []);
    });

    it('reject an unknown event name', async () => {
      const { client } = await fakeSetup();
      assert.throws(
        () => client.on('connected' as 'stateChanged', () => undefined),
        isInvalidArgument,
      );
    });
  });

  describe('namespaces', () => {
    it('maps paths in and out, creating the namespace node on first use', async () => {
      const { zk, client } = await fakeSetup({ namespace: 'app' });
      assert.equal(client.namespace, 'app');
      assert.equal(await client.create('/a', { data: Buffer.from('1') }), '/a');
      assert.equal(
        await client.create('/a/s-', { mode: 'PERSISTENT_SEQUENTIAL' }),
        '/a/s-0000000000',
      );
      assert.deepEqual(zk.paths(), ['/', '/app', '/app/a', '/app/a/s-0000000000']);
      assert.deepEqual(await client.getChildren('/'), ['a']);
      assert.equal((await client.getData('/a')).data.toString(), '1');
      assert.equal((await client.exists('/')) !== null, true);
    });

    it('maps watcher event paths back out of the namespace', async () => {
      const { client } = await fakeSetup({ namespace: 'app/v2' });
      await client.create('/node');
      const watcher = recordingWatcher();
      await client.getData('/node', { watch: watcher.watch });
      await client.setData('/node', Buffer.from('x'));
      assert.deepEqual(await watcher.first, { type: 'NODE_DATA_CHANGED', path: '/node' });
    });

    it('usingNamespace gives a view sharing the connection, whose close() is refused', async () => {
      const { zk, client, lifecycle } = await fakeSetup({ namespace: 'app' });
      const other = client.usingNamespace('other');
      assert.equal(other.namespace, 'other');
      assert.equal(await other.create('/b'), '/b');
      assert.ok(zk.has('/other/b'));
      const none = client.usingNamespace(undefined);
      assert.equal(none.namespace, undefined);
      assert.deepEqual((await none.getChildren('/')).sort(), ['other']);
      await assert.rejects(other.close(), /close the client that created this view/);
      await assert.rejects(other.start(), /start the client that created this view/);
      await other[Symbol.asyncDispose]();
      assert.equal(lifecycle.closeCalls, 0);
      assert.equal(other.state, 'STARTED');
      await client.close();
      assert.equal(other.state, 'STOPPED', 'the view shares the lifecycle');
    });

    it('usingNamespace validates the namespace', async () => {
      const { client } = await fakeSetup();
      assert.throws(() => client.usingNamespace('/abs'), /must not start with "\/"/);
      assert.throws(() => client.usingNamespace('a//b'), isInvalidArgument);
    });
  });

  describe('reads', () => {
    it('exists resolves null for a missing node and a Stat otherwise', async () => {
      const { zk, client } = await fakeSetup();
      assert.equal(await client.exists('/nope'), null);
      zk.seed('/yes', 'abc');
      assert.equal((await client.exists('/yes'))?.dataLength, 3);
    });

    it('getChildren returns names, or names and the Stat with { stat: true }', async () => {
      const { zk, client } = await fakeSetup();
      zk.seed('/p');
      zk.seed('/p/a');
      zk.seed('/p/b');
      assert.deepEqual((await client.getChildren('/p')).sort(), ['a', 'b']);
      const { children, stat } = await client.getChildren('/p', { stat: true });
      assert.deepEqual(children.sort(), ['a', 'b']);
      assert.equal(stat.numChildren, 2);
    });

    it('setData, getAcl and setAcl pass versions through', async () => {
      const { zk, client } = await fakeSetup();
      zk.seed('/v', 'a');
      assert.equal((await client.setData('/v', Buffer.from('b'), { version: 0 })).version, 1);
      await assert.rejects(client.setData('/v', Buffer.from('c'), { version: 0 }), {
        code: 'BAD_VERSION',
      });
      const acl = [{ perms: 1, id: { scheme: 'world', id: 'anyone' } }];
      assert.equal((await client.setAcl('/v', acl, { version: 0 })).aversion, 1);
      assert.deepEqual((await client.getAcl('/v')).acl, acl);
    });

    it('retries a read on CONNECTION_LOSS', async () => {
      const { zk, client } = await fakeSetup();
      zk.seed('/r', 'ok');
      zk.failNext('getData', { times: 2 });
      assert.equal((await client.getData('/r')).data.toString(), 'ok');
      assert.equal(zk.callsOf('getData').length, 3);
    });
  });

  describe('watches', () => {
    it('a watcher fires at most once even when a retried read registered it twice', async () => {
      const { zk, client } = await fakeSetup();
      zk.seed('/w');
      // The first getData registers its watch, then the reply is lost; the retry registers again.
      zk.failNext('getData', { when: 'after' });
      const watcher = recordingWatcher();
      await client.getData('/w', { watch: watcher.watch });
      assert.equal(zk.callsOf('getData').length, 2);
      await client.setData('/w', Buffer.from('changed'));
      await watcher.first;
      assert.equal(watcher.events.length, 1);
    });

    it('a watcher fires for a created node after exists returned null', async () => {
      const { client } = await fakeSetup();
      const watcher = recordingWatcher();
      assert.equal(await client.exists('/later', { watch: watcher.watch }), null);
      await client.create('/later');
      assert.deepEqual(await watcher.first, { type: 'NODE_CREATED', path: '/later' });
    });

    it('a child watch reports NODE_CHILDREN_CHANGED with the client path', async () => {
      const { client } = await fakeSetup({ namespace: 'ns' });
      await client.create('/dir');
      const watcher = recordingWatcher();
      await client.getChildren('/dir', { watch: watcher.watch });
      await client.create('/dir/kid');
      assert.deepEqual(await watcher.first, { type: 'NODE_CHILDREN_CHANGED', path: '/dir' });
    });

    it('aborting the signal makes the watcher a no-op', async () => {
      const { client, zk } = await fakeSetup();
      const controller = new AbortController();
      const removed = recordingWatcher();
      const kept = recordingWatcher();
      await client.exists('/w', { watch: removed.watch, signal: controller.signal });
      await client.exists('/w', { watch: kept.watch });
      controller.abort();
      await client.create('/w');
      await kept.first;
      assert.deepEqual(removed.events, []);
      // An already-aborted signal rejects with its reason and sends nothing, watch or read.
      const before = zk.calls.length;
      await assert.rejects(
        client.exists('/w', { watch: removed.watch, signal: controller.signal }),
        (error) => error === controller.signal.reason,
      );
      assert.equal(zk.calls.length, before);
      await client.delete('/w');
      assert.deepEqual(removed.events, []);
    });

    it('a throwing watcher goes to unhandledErrors, not to the connection', async () => {
      const { client, unhandled } = await fakeSetup();
      const boom = new Error('watcher bug');
      await client.exists('/t', {
        watch: () => {
          throw boom;
        },
      });
      await client.create('/t');
      assert.deepEqual(unhandled, [{ error: boom, context: 'watcher /t' }]);
    });
  });
});
