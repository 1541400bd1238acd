// Read-only mode on a real 3-server ensemble with readonlymode.enabled: two servers stopped, the
// third serves reads alone. A client with canBeReadOnly reports READ_ONLY, reads, has its writes
// refused at once, and goes back to read-write when the quorum returns; a default client sees
// SUSPENDED and LOST as without read-only mode; a lock hold is not valid while READ_ONLY.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import {
  ConnectionState,
  createFramework,
  isNotReadOnly,
  NotReadOnlyError,
  type FrameworkClient,
} from '@zkrecipes/framework';
import { InterProcessMutex } from '@zkrecipes/locks';
import { fourLetterWord, TestingCluster, timing, uniquePath, waitFor } from '@zkrecipes/testing';

const SESSION_TIMEOUT_MS = 4_000;

function client(connectString: string, canBeReadOnly: boolean): FrameworkClient {
  return createFramework({
    connectString,
    canBeReadOnly,
    sessionTimeoutMs: SESSION_TIMEOUT_MS,
    logger: { error() {}, warn() {}, info() {}, debug() {} },
  });
}

function statesOf(c: FrameworkClient): ConnectionState[] {
  const seen: ConnectionState[] = [];
  c.on('stateChanged', (state) => seen.push(state));
  return seen;
}

describe('read-only mode (canBeReadOnly) on a 3-server ensemble', () => {
  let cluster: TestingCluster;
  before(async () => {
    cluster = await TestingCluster.start({ size: 3, readOnlyMode: true });
  });
  after(() => cluster.close());

  it('two servers stopped: READ_ONLY, reads served, writes refused at once, back read-write when the quorum returns; a default client is SUSPENDED then LOST', async (t) => {
    const root = uniquePath('/read-only');
    const readOnly = client(cluster.connectString, true);
    const plain = client(cluster.connectString, false);
    await readOnly.start();
    await plain.start();
    try {
      await readOnly.create(`${root}/data`, {
        data: Buffer.from('hello'),
        createParents: true,
        containerParents: false,
      });
      await readOnly.create(`${root}/data/child`);
      const hold = await new InterProcessMutex(readOnly, `${root}/lock`).acquireHold();
      assert.equal(hold.isValid(), true);
      const readOnlyStates = statesOf(readOnly);
      const plainStates = statesOf(plain);

      const stoppedAt = performance.now();
      await Promise.all([cluster.killServer(1), cluster.killServer(2)]);
      await waitFor(
        async () =>
          (
            await fourLetterWord('127.0.0.1', cluster.servers[0]!.port, 'isro').catch(() => '')
          ).startsWith('ro'),
        {
          timeoutMs: timing.ms(30_000),
          message: 'the remaining server in read-only mode',
        },
      );
      await waitFor(() => readOnly.connectionState === ConnectionState.READ_ONLY, {
        timeoutMs: timing.ms(3 * SESSION_TIMEOUT_MS + 10_000),
        message: 'READ_ONLY',
      });
      t.diagnostic(
        `READ_ONLY ${Math.round(performance.now() - stoppedAt)} ms after the stop; states ${readOnlyStates.join(' ')}`,
      );
      assert.equal(hold.isValid(), false, 'a hold is not valid while READ_ONLY');
      assert.equal(readOnly.health().readOnly, true);

      // Reads work.
      const { data } = await readOnly.getData(`${root}/data`);
      assert.equal(data.toString(), 'hello');
      assert.deepEqual(await readOnly.getChildren(`${root}/data`), ['child']);

      // Writes are refused at once, typed.
      for (const write of [
        () => readOnly.create(`${root}/new`),
        () => readOnly.setData(`${root}/data`, Buffer.from('x')),
        () => readOnly.delete(`${root}/data/child`),
      ]) {
        const startedAt = performance.now();
        await assert.rejects(
          write(),
          (error) => error instanceof NotReadOnlyError && isNotReadOnly(error),
        );
        const tookMs = performance.now() - startedAt;
        t.diagnostic(`write refused in ${tookMs.toFixed(2)} ms`);
        assert.ok(tookMs < 100, `refused in ${tookMs} ms`);
      }

      // A default client is never READ_ONLY: SUSPENDED, then LOST by its timer.
      await waitFor(() => plainStates.includes(ConnectionState.LOST), {
        timeoutMs: timing.ms(3 * SESSION_TIMEOUT_MS),
        message: 'the default client LOST',
      });
      assert.equal(plainStates[0], ConnectionState.SUSPENDED);
      assert.ok(!plainStates.includes(ConnectionState.READ_ONLY), plainStates.join(' '));

      // A client started now is READ_ONLY at once, and closes promptly.
      const late = client(cluster.connectString, true);
      const lateStartedAt = performance.now();
      await late.start();
      await waitFor(() => late.connectionState === ConnectionState.READ_ONLY, {
        timeoutMs: timing.ms(SESSION_TIMEOUT_MS),
        message: 'a new client READ_ONLY within the session timeout',
      });
      t.diagnostic(
        `a new client READ_ONLY after ${Math.round(performance.now() - lateStartedAt)} ms`,
      );
      const closeStartedAt = performance.now();
      await late.close();
      const closeMs = performance.now() - closeStartedAt;
      t.diagnostic(`close() while READ_ONLY took ${Math.round(closeMs)} ms`);
      assert.ok(closeMs < timing.ms(1_500), `close took ${closeMs} ms`);

      // The quorum returns: back read-write.
      const restartAt = performance.now();
      await Promise.all([cluster.restartServer(1), cluster.restartServer(2)]);
      const quorumAt = performance.now();
      t.diagnostic(
        `servers serving again ${Math.round(quorumAt - restartAt)} ms after the restart`,
      );
      await waitFor(() => readOnly.connectionState === ConnectionState.RECONNECTED, {
        timeoutMs: timing.ms(SESSION_TIMEOUT_MS),
        message: 'RECONNECTED within a session timeout of the quorum',
      });
      t.diagnostic(
        `RECONNECTED ${Math.round(performance.now() - restartAt)} ms after the restart began; states ${readOnlyStates.join(' ')}`,
      );
      assert.equal(readOnly.health().readOnly, false);
      await readOnly.create(`${root}/after`);
      await waitFor(() => plain.connectionState === ConnectionState.RECONNECTED, {
        timeoutMs: timing.ms(3 * SESSION_TIMEOUT_MS),
        message: 'the default client RECONNECTED',
      });
      assert.ok(!plainStates.includes(ConnectionState.READ_ONLY), plainStates.join(' '));
    } finally {
      await readOnly.close();
      await plain.close();
    }
  });
});
