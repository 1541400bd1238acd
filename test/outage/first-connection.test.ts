// The first connection: a server that cannot be reached says why at once (a warn line with the
// server and the cause, health(), the rejection's cause), and calls made between start() and
// the first connection wait for it, so `acquire(0)` right after start() answers about the lock.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  createFramework,
  isClosed,
  isConnectionLoss,
  isIllegalState,
  type FrameworkClient,
  type Logger,
} from '@zkrecipes/framework';
import { DistributedBarrier } from '@zkrecipes/barriers';
import { SimpleDistributedQueue } from '@zkrecipes/queues';
import { InterProcessMutex, InterProcessSemaphoreV2 } from '@zkrecipes/locks';
import { TestingServer, freePort, uniquePath } from '@zkrecipes/testing';

interface Line {
  level: string;
  message: string;
  meta: Record<string, unknown> | undefined;
}

function recordingLogger(lines: Line[]): Logger {
  const logger: Logger = {
    error: (message, meta) => lines.push({ level: 'error', message, meta }),
    warn: (message, meta) => lines.push({ level: 'warn', message, meta }),
    info: (message, meta) => lines.push({ level: 'info', message, meta }),
    debug: (message, meta) => lines.push({ level: 'debug', message, meta }),
    child: () => logger,
  };
  return logger;
}

function elapsedMs(sinceMs: number): number {
  return performance.now() - sinceMs;
}

/** The code of an error's cause, if it has one. */
function causeCode(error: unknown): unknown {
  return ((error as { cause?: { code?: unknown } }).cause ?? {}).code;
}

const CONNECTION_TIMEOUT_MS = 1_500;

/** A start({ timeoutMs }) that must fail: its error, how long it took, and the log. */
async function failedStart(
  connectString: string,
): Promise<{ error: unknown; tookMs: number; lines: Line[]; client: FrameworkClient }> {
  const lines: Line[] = [];
  const client = createFramework({
    connectString,
    connectionTimeoutMs: CONNECTION_TIMEOUT_MS,
    sessionTimeoutMs: 6_000,
    logger: recordingLogger(lines),
  });
  const startedAt = performance.now();
  let error: unknown;
  try {
    await client.start({});
  } catch (caught) {
    error = caught;
  }
  return { error, tookMs: elapsedMs(startedAt), lines, client };
}

function assertSaysWhy(
  result: Awaited<ReturnType<typeof failedStart>>,
  server: string,
  code: string,
): void {
  const { error, tookMs, lines, client } = result;
  assert.ok(isConnectionLoss(error), `a ConnectionLossError, got ${String(error)}`);
  assert.equal(causeCode(error), code);
  assert.match((error as Error).message, new RegExp(server.replace(/[.[\]]/g, '\\$&')));
  assert.ok(tookMs >= CONNECTION_TIMEOUT_MS - 50, `waited ${tookMs} ms`);
  assert.ok(tookMs < CONNECTION_TIMEOUT_MS + 1_000, `gave up after ${tookMs} ms`);
  // The start that failed closed the client: nothing keeps trying in the background.
  assert.equal(client.state, 'STOPPED');
  const warnings = lines.filter((line) => line.level === 'warn' && line.meta?.server === server);
  assert.ok(warnings.length >= 1, `a warn line for ${server}: ${JSON.stringify(lines)}`);
  assert.equal(warnings[0]!.meta?.code, code);
  // Logged once per server per outage at warn; later failures of the same server at debug.
  assert.equal(warnings.length, 1);
}

describe('a server that cannot be reached', () => {
  it('refused port: start({}) rejects within connectionTimeoutMs with ECONNREFUSED and the server, logged at warn once', async () => {
    const port = await freePort();
    const result = await failedStart(`127.0.0.1:${port}`);
    assertSaysWhy(result, `127.0.0.1:${port}`, 'ECONNREFUSED');
  });

  it('unresolvable host: start({}) rejects with ENOTFOUND and the host', async () => {
    const result = await failedStart('no-such-host.invalid:2181');
    assertSaysWhy(result, 'no-such-host.invalid:2181', 'ENOTFOUND');
  });

  it('a host that accepts TCP and never answers: start({}) rejects with ETIMEDOUT, saying the handshake went unanswered', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const result = await failedStart(`127.0.0.1:${port}`);
      const { error } = result;
      assert.ok(isConnectionLoss(error));
      assert.equal(causeCode(error), 'ETIMEDOUT');
      assert.match((error as Error).message, /handshake/);
      assert.match((error as Error).message, new RegExp(`127\\.0\\.0\\.1:${port}`));
      assert.equal(result.client.state, 'STOPPED');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a call made after start() rejects with the cause after connectionTimeoutMs, not after retries; health() reports the last connection error', async () => {
    const port = await freePort();
    const lines: Line[] = [];
    const client = createFramework({
      connectString: `127.0.0.1:${port}`,
      connectionTimeoutMs: CONNECTION_TIMEOUT_MS,
      logger: recordingLogger(lines),
    });
    await client.start();
    try {
      const startedAt = performance.now();
      const error = await client.create(uniquePath('never')).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      const tookMs = elapsedMs(startedAt);
      assert.ok(isConnectionLoss(error));
      assert.equal(causeCode(error), 'ECONNREFUSED');
      assert.ok(tookMs < CONNECTION_TIMEOUT_MS + 1_000, `rejected after ${tookMs} ms`);
      const health = client.health();
      assert.equal(health.ready, false);
      assert.equal(health.lastConnectionError?.server, `127.0.0.1:${port}`);
      assert.equal(health.lastConnectionError?.code, 'ECONNREFUSED');
      assert.ok(Date.now() - Date.parse(health.lastConnectionError.at) < 10_000);
    } finally {
      await client.close();
    }
  });

  it('start({ signal }) rejects with the signal reason when aborted, and closes the client', async () => {
    const port = await freePort();
    const client = createFramework({ connectString: `127.0.0.1:${port}` });
    const reason = new Error('gave up');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 100);
    await assert.rejects(client.start({ signal: controller.signal }), (error) => error === reason);
    assert.equal(client.state, 'STOPPED');
  });

  it("connectionIssueLogging 'off' keeps the failures out of warn", async () => {
    const port = await freePort();
    const lines: Line[] = [];
    const client = createFramework({
      connectString: `127.0.0.1:${port}`,
      connectionTimeoutMs: 500,
      connectionIssueLogging: 'off',
      logger: recordingLogger(lines),
    });
    await assert.rejects(client.start({}), isConnectionLoss);
    assert.deepEqual(
      lines.filter((line) => line.level === 'warn'),
      [],
    );
    assert.ok(lines.some((line) => line.level === 'debug' && line.meta?.code === 'ECONNREFUSED'));
  });
});

describe('calls between start() and the first connection', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(async () => {
    await server.close();
  });

  it('start({ timeoutMs }) resolves once connected', async () => {
    const client = createFramework({ connectString: server.connectString });
    try {
      await client.start({ timeoutMs: 10_000 });
      assert.equal(client.isConnected, true);
    } finally {
      await client.close();
    }
  });

  it('acquire(0) right after start() on a free lock is true, for 50 fresh clients', async () => {
    const path = uniquePath('fresh-lock');
    let acquired = 0;
    for (let round = 0; round < 50; round++) {
      const client = createFramework({ connectString: server.connectString });
      await client.start();
      try {
        const mutex = new InterProcessMutex(client, path);
        if (await mutex.acquire(0)) {
          acquired++;
          await mutex.release();
        }
      } finally {
        await client.close();
      }
    }
    assert.equal(acquired, 50);
  });

  it('the time limits of a semaphore, a barrier and a queue count from the first connection', async () => {
    const client = createFramework({ connectString: server.connectString });
    await client.start();
    try {
      const semaphore = new InterProcessSemaphoreV2(client, uniquePath('fresh-semaphore'), 1);
      const leases = await semaphore.acquire(1, 0);
      assert.equal(leases?.length, 1);
      await semaphore.returnLease(leases[0]!);
    } finally {
      await client.close();
    }
    const barrierClient = createFramework({ connectString: server.connectString });
    await barrierClient.start();
    try {
      // An unset barrier: waitOnBarrier(0) answers true after a look at the server.
      const barrier = new DistributedBarrier(barrierClient, uniquePath('fresh-barrier'));
      assert.equal(await barrier.waitOnBarrier({ timeoutMs: 0 }), true);
    } finally {
      await barrierClient.close();
    }
    const queuePath = uniquePath('fresh-queue');
    const producer = createFramework({ connectString: server.connectString });
    await producer.start();
    await new SimpleDistributedQueue(producer, queuePath).offer(Buffer.from('x'));
    await producer.close();
    const queueClient = createFramework({ connectString: server.connectString });
    await queueClient.start();
    try {
      const queue = new SimpleDistributedQueue(queueClient, queuePath);
      assert.deepEqual(await queue.poll({ timeoutMs: 0 }), Buffer.from('x'));
    } finally {
      await queueClient.close();
    }
  });

  it('acquire(0) with no server rejects with the connection cause after connectionTimeoutMs; before start() it is an IllegalStateError, after close() a ClosedError', async () => {
    const port = await freePort();
    const client = createFramework({
      connectString: `127.0.0.1:${port}`,
      connectionTimeoutMs: 800,
    });
    const mutex = new InterProcessMutex(client, uniquePath('unreachable-lock'));
    await assert.rejects(mutex.acquire(0), isIllegalState);
    await client.start();
    const startedAt = performance.now();
    const error = await mutex.acquire(0).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.ok(isConnectionLoss(error), String(error));
    assert.equal(causeCode(error), 'ECONNREFUSED');
    assert.ok(elapsedMs(startedAt) < 800 + 1_000);
    await client.close();
    await assert.rejects(mutex.acquire(0), isClosed);
  });
});
