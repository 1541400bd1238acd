import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { TestingServer, timing, uniquePath } from '@zkrecipes/testing';
import { createFramework, type FrameworkOptions } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { isAuthFailed, isNoAuth } from '../../src/errors/predicates.js';
import { AuthFailedError } from '../../src/errors/zookeeper-error-classes.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { ConnectionState } from '../../src/state/connection-state.js';
import { RecordingMechanism } from './fixtures/recording-mechanism.js';

const ALL = 31;
const saslAcl = (user: string) => [{ perms: ALL, id: { scheme: 'sasl', id: user } }];

describe('SASL DIGEST-MD5 (a server that accepts SASL)', () => {
  let server: TestingServer;
  const clients: FrameworkClient[] = [];
  const client = (options: Omit<FrameworkOptions, 'connectString'>): FrameworkClient => {
    const made = createFramework({
      connectString: server.connectString,
      logger: silentLogger,
      ...options,
    });
    clients.push(made);
    return made;
  };
  const bob = { mechanism: 'DIGEST-MD5', username: 'bob', password: 'bob-secret' } as const;

  before(async () => {
    server = await TestingServer.start({
      sasl: { users: { bob: 'bob-secret', alice: 'alice-secret' } },
    });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  });

  it("authenticates with the server's own challenge (realm zk-sasl-md5, md5-sess) and then operates", async () => {
    const mechanism = new RecordingMechanism('bob', 'bob-secret');
    const c = client({ sasl: mechanism });
    await c.start({ timeoutMs: timing.ms(10_000) });
    assert.equal(mechanism.starts, 1);
    assert.equal(mechanism.complete, true);
    const [challenge, rspauth] = mechanism.serverTokens;
    assert.match(challenge!, /realm="zk-sasl-md5"/);
    assert.match(challenge!, /algorithm=md5-sess/);
    assert.match(challenge!, /charset=utf-8/);
    assert.match(rspauth!, /^rspauth=[0-9a-f]{32}$/);
    const path = uniquePath('sasl-ops');
    await c.create(path, { data: Buffer.from('v1') });
    await c.setData(path, Buffer.from('v2'));
    assert.equal((await c.getData(path)).data.toString(), 'v2');
  });

  it('a sasl:bob node is readable by bob and NO_AUTH to alice', async () => {
    const path = uniquePath('sasl-acl');
    const owner = client({ sasl: bob });
    await owner.start({ timeoutMs: timing.ms(10_000) });
    await owner.create(path, { data: Buffer.from('for bob'), acl: saslAcl('bob') });
    assert.deepEqual((await owner.getAcl(path)).acl, saslAcl('bob'));

    const again = client({ sasl: bob });
    await again.start({ timeoutMs: timing.ms(10_000) });
    assert.equal((await again.getData(path)).data.toString(), 'for bob');

    const alice = client({
      sasl: { mechanism: 'DIGEST-MD5', username: 'alice', password: 'alice-secret' },
    });
    await alice.start({ timeoutMs: timing.ms(10_000) });
    await assert.rejects(alice.getData(path), (error) => isNoAuth(error));
  });

  it('a wrong password fails fast with a terminal AuthFailedError, start() rejects, nothing retries', async (t) => {
    const mechanism = new RecordingMechanism('bob', 'not-the-password');
    const c = client({ sasl: mechanism });
    const began = performance.now();
    const error = await c.start({ timeoutMs: timing.ms(10_000) }).then(
      () => assert.fail('start() resolved'),
      (e: unknown) => e,
    );
    const tookMs = performance.now() - began;
    t.diagnostic(`wrong password rejected in ${tookMs.toFixed(1)} ms`);
    assert.ok(error instanceof AuthFailedError, String(error));
    assert.equal(error.code, 'AUTH_FAILED');
    assert.match(error.message, /DIGEST-MD5 as 'bob'.*refused the credentials/);
    assert.ok(tookMs < timing.ms(2000), `took ${tookMs} ms`);
    assert.equal(mechanism.starts, 1);

    // Started without waiting: operations reject with it, the same error every time.
    const later = new RecordingMechanism('bob', 'not-the-password');
    const d = client({ sasl: later });
    await d.start();
    const first = await d.exists('/').then(
      () => assert.fail('exists resolved'),
      (e: unknown) => e,
    );
    assert.ok(isAuthFailed(first), String(first));
    await assert.rejects(d.exists('/'), (e) => e === first);
    // Another client's whole exchange later, still one attempt of ours: no retry loop.
    const other = client({ sasl: bob });
    await other.start({ timeoutMs: timing.ms(10_000) });
    assert.equal(later.starts, 1);
  });

  it('a mechanism that throws fails the client with its message', async () => {
    const c = client({
      sasl: {
        name: 'BROKEN',
        complete: false,
        start: () => Buffer.alloc(0),
        evaluate: () => {
          throw new Error('no token for you');
        },
      },
    });
    await assert.rejects(
      c.start({ timeoutMs: timing.ms(10_000) }),
      (e) => isAuthFailed(e) && /SASL BROKEN failed: no token for you/.test((e as Error).message),
    );
  });

  it('requests made before and during SASL wait for it, then run in call order', async () => {
    const path = uniquePath('sasl-parked');
    const owner = client({ sasl: bob });
    await owner.start({ timeoutMs: timing.ms(10_000) });
    await owner.create(path, { data: Buffer.from('v0'), acl: saslAcl('bob') });

    const mechanism = new RecordingMechanism('bob', 'bob-secret');
    let evaluating = 0;
    // A slow mechanism: requests made while it works must not overtake it (the sasl:bob ACL
    // would answer NO_AUTH to a request the server saw first).
    mechanism.beforeEvaluate = async () => {
      evaluating++;
      await delay(50);
    };
    const c = client({ sasl: mechanism });
    const started = c.start({ timeoutMs: timing.ms(10_000) });
    const order: string[] = [];
    const first = c.getData(path).then((r) => (order.push('get1'), r.data.toString()));
    const set = c.setData(path, Buffer.from('v1')).then(() => order.push('set'));
    const second = c.getData(path).then((r) => (order.push('get2'), r.data.toString()));
    assert.equal(evaluating, 0, 'the requests were made before the server challenged');
    await started;
    assert.deepEqual(await Promise.all([first, set, second]), ['v0', 2, 'v1']);
    assert.deepEqual(order, ['get1', 'set', 'get2']);
    assert.equal(evaluating, 2);
  });

  it('the server restarts: the same session re-authenticates on the new connection before parked reads', async () => {
    const path = uniquePath('sasl-restart');
    const mechanism = new RecordingMechanism('bob', 'bob-secret');
    const c = client({ sasl: mechanism, sessionTimeoutMs: 20_000 });
    await c.start({ timeoutMs: timing.ms(10_000) });
    await c.create(path, { data: Buffer.from('kept'), acl: saslAcl('bob') });
    const sessionId = c.sessionId;
    const suspended = new Promise<void>((resolve) => {
      const off = c.on('stateChanged', (state) => {
        if (state === ConnectionState.SUSPENDED) {
          off();
          resolve();
        }
      });
    });
    await server.stop();
    await suspended;
    const read = c.getData(path);
    await server.restart();
    assert.equal((await read).data.toString(), 'kept');
    assert.equal(c.sessionId, sessionId, 'the same session');
    assert.equal(mechanism.starts, 2, 'SASL ran again on the new connection');
    assert.equal(c.connectionState, ConnectionState.RECONNECTED);
  });

  it('server paused mid-handshake: start({ timeoutMs }) ends on time and close() is prompt', async (t) => {
    const mechanism = new RecordingMechanism('bob', 'bob-secret');
    let paused = false;
    mechanism.beforeEvaluate = async () => {
      if (paused) return;
      paused = true;
      await server.pause();
    };
    const c = client({ sasl: mechanism, sessionTimeoutMs: 4000 });
    try {
      const began = performance.now();
      await assert.rejects(c.start({ timeoutMs: timing.ms(1500) }));
      const waitedMs = performance.now() - began;
      assert.ok(waitedMs < timing.ms(3000), `start() waited ${waitedMs} ms`);
      const closing = performance.now();
      await c.close();
      const closeMs = performance.now() - closing;
      t.diagnostic(
        `start() gave up after ${waitedMs.toFixed(0)} ms; close() took ${closeMs.toFixed(1)} ms`,
      );
      assert.ok(closeMs < timing.ms(500), `close() took ${closeMs} ms`);
      assert.equal(mechanism.complete, false);
    } finally {
      server.resume();
    }
    // The server answers again, and a new client authenticates.
    const after = client({ sasl: bob });
    await after.start({ timeoutMs: timing.ms(10_000) });
  });
});
