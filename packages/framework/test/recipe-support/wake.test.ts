// Wake: the one-shot watch recipes wait on, and the signal its read gets.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestingServer, uniquePath } from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { createFramework } from '../../src/create-framework.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { Wake } from '../../src/recipe-support/wake.js';
import { WITHDRAWN } from '../../src/recipe-support/withdrawn.js';
import type { WatchedEvent } from '../../src/zk/zookeeper-types.js';

describe('Wake', () => {
  it('signalWith: the call’s abort aborts the read’s signal with the call’s reason', () => {
    const call = new AbortController();
    const wake = new Wake();
    const signal = wake.signalWith(call.signal);
    assert.equal(signal.aborted, false);
    const reason = new Error('caller gave up');
    call.abort(reason);
    assert.equal(signal.aborted, true);
    assert.equal(signal.reason, reason);
  });

  it('signalWith on a call already aborted returns an aborted signal', () => {
    const reason = new Error('already');
    const wake = new Wake();
    assert.equal(wake.signalWith(AbortSignal.abort(reason)).reason, reason);
  });

  it('cancel() aborts with the shared WITHDRAWN reason and stops listening to the call', () => {
    const call = new AbortController();
    const wake = new Wake();
    const signal = wake.signalWith(call.signal);
    wake.cancel();
    assert.equal(signal.reason, WITHDRAWN);
    assert.equal(WITHDRAWN.name, 'AbortError');
    call.abort(new Error('later'));
    assert.equal(signal.reason, WITHDRAWN, 'the call’s later abort is not forwarded');
  });

  it('after the watch fired, cancel() leaves the signal alone and the call’s abort is no longer forwarded', async () => {
    const call = new AbortController();
    const wake = new Wake();
    const signal = wake.signalWith(call.signal);
    const event: WatchedEvent = { type: 'NODE_DELETED', path: '/x' };
    wake.watch(event);
    assert.equal(await wake.event, event);
    wake.cancel();
    call.abort(new Error('later'));
    assert.equal(signal.aborted, false);
  });

  describe('on the real server', () => {
    let server: TestingServer;
    let client: FrameworkClient;
    before(async () => {
      server = await TestingServer.start();
      client = createFramework({ connectString: server.connectString, logger: silentLogger });
      await client.start();
      await client.blockUntilConnected({ timeoutMs: 20_000 });
    });
    after(async () => {
      await client.close();
      await server.close();
    });

    it('a cancelled wake’s watcher is never called; a live one gets the event', async () => {
      const path = uniquePath('wake');
      const call = new AbortController();
      const silenced = new Wake();
      const live = new Wake();
      let silencedCalls = 0;
      await client.exists(path, {
        watch: (event) => {
          silencedCalls += 1;
          silenced.watch(event);
        },
        signal: silenced.signalWith(call.signal),
      });
      await client.exists(path, { watch: live.watch, signal: live.signalWith(call.signal) });
      silenced.cancel();
      await client.create(path);
      const event = await live.event;
      assert.equal(event.type, 'NODE_CREATED');
      assert.equal(silencedCalls, 0);
      await client.delete(path);
    });

    it('a read whose call aborts rejects with the call’s reason', async () => {
      const call = new AbortController();
      const wake = new Wake();
      const reason = new Error('caller gave up');
      const read = client.getChildren('/', {
        watch: wake.watch,
        signal: wake.signalWith(call.signal),
      });
      call.abort(reason);
      await assert.rejects(read, (error) => error === reason);
      wake.cancel();
    });
  });
});
