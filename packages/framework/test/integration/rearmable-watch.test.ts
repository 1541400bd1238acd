import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { killSession, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { RearmableWatch } from '../../src/recipe-support/rearmable-watch.js';
import type { WatchEventType } from '../../src/zk/zookeeper-types.js';
import { quickClient } from './fixtures/quick-client.js';

/** What a RearmableWatch's listener saw: the event, whether current, and `armed` at that time. */
interface Fired {
  readonly type: WatchEventType;
  readonly current: boolean;
  readonly armedThen: boolean;
}

function recordingWatch(): { watch: RearmableWatch; fired: Fired[] } {
  const fired: Fired[] = [];
  const watch: RearmableWatch = new RearmableWatch((event, current) => {
    fired.push({ type: event.type, current, armedThen: watch.armed });
  });
  return { watch, fired };
}

describe('RearmableWatch on a real server', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  let writer: FrameworkClient;
  before(async () => {
    server = await TestingServer.start();
    client = await quickClient(server.connectString);
    writer = await quickClient(server.connectString);
  });
  after(async () => {
    await client.close();
    await writer.close();
    await server.close();
  });

  it('is armed once the read resolves, asks for no second watch, and is not armed once the event is delivered', async () => {
    const path = await client.create(uniquePath('armed'));
    const { watch, fired } = recordingWatch();
    const attempt = watch.next();
    assert.ok(attempt);
    const read = client.getData(path, { watch: attempt.watcher });
    assert.equal(watch.armed, false, 'not armed while the read is in flight');
    await read;
    attempt.confirm();
    assert.equal(watch.armed, true);
    assert.equal(watch.next(), undefined, 'armed: the next read needs no watch');
    await writer.setData(path, Buffer.from('x'));
    await waitFor(() => fired.length > 0, { timeoutMs: 10_000, message: 'the watch event' });
    assert.deepEqual(fired, [{ type: 'NODE_DATA_CHANGED', current: true, armedThen: false }]);
    assert.equal(attempt.event, 'NODE_DATA_CHANGED');
    assert.equal(watch.armed, false);
    assert.ok(watch.next(), 'disarmed: the next read sets a new watch');
  });

  it('a change pipelined right behind the read: its event finds the watch armed (the ordering contract) and disarms it', async () => {
    const path = await client.create(uniquePath('pipelined'));
    for (let round = 0; round < 20; round++) {
      const { watch, fired } = recordingWatch();
      const attempt = watch.next();
      assert.ok(attempt);
      // Same client, same tick: the server answers the read, then the write, then notifies.
      const read = client.getData(path, { watch: attempt.watcher });
      const write = client.setData(path, Buffer.from(String(round)));
      await read;
      attempt.confirm();
      await write;
      await waitFor(() => fired.length > 0, { timeoutMs: 10_000, message: 'the watch event' });
      assert.deepEqual(fired, [{ type: 'NODE_DATA_CHANGED', current: true, armedThen: false }]);
      assert.equal(watch.armed, false, `round ${round}: still armed after its event`);
    }
  });

  it('is not armed after a new session: SESSION_EXPIRED disarms it, and the next read arms a live watch', async () => {
    const path = await client.create(uniquePath('new-session'));
    const { watch, fired } = recordingWatch();
    const first = watch.next();
    assert.ok(first);
    await client.getData(path, { watch: first.watcher });
    first.confirm();
    assert.equal(watch.armed, true);
    await killSession(client, server.connectString);
    await waitFor(() => fired.length > 0, {
      timeoutMs: timing.ms(15_000),
      message: 'SESSION_EXPIRED',
    });
    assert.deepEqual(fired, [{ type: 'SESSION_EXPIRED', current: true, armedThen: false }]);
    assert.equal(watch.armed, false);
    const second = watch.next();
    assert.ok(second, 'a new session needs a new watch');
    await client.getData(path, { watch: second.watcher });
    second.confirm();
    assert.equal(watch.armed, true);
    await writer.delete(path);
    await waitFor(() => fired.length > 1, { timeoutMs: 10_000, message: 'the new watch event' });
    assert.deepEqual(fired[1], { type: 'NODE_DELETED', current: true, armedThen: false });
    assert.equal(watch.armed, false);
  });
});
