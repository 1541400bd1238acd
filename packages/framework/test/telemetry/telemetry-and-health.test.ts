import assert from 'node:assert/strict';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { after, before, describe, it } from 'node:test';
import { killSession, TestingServer, timing, uniquePath, waitFor } from '@zkrecipes/testing';
import { createFramework, type FrameworkOptions } from '../../src/create-framework.js';
import type { FrameworkClient } from '../../src/client/framework-client.js';
import { InvalidArgumentError } from '../../src/errors/zookeeper-error-classes.js';
import { RetryOneTime } from '../../src/retry/retry-one-time.js';
import { silentLogger } from '../../src/logging/silent-logger.js';
import { telemetryOf } from '../../src/recipe-support/telemetry-of.js';
import { FRAMEWORK_SCOPE } from '../../src/telemetry/client-telemetries.js';
import { readinessHandler, type ReadinessResponse } from '../../src/health/readiness-handler.js';
import { OtelCapture, scopeKey } from '@zkrecipes/test-support/otel-capture';

function clientOf(server: TestingServer, options: Partial<FrameworkOptions> = {}): FrameworkClient {
  return createFramework({
    connectString: server.connectString,
    sessionTimeoutMs: 10_000,
    retryPolicy: new RetryOneTime({ sleepBetweenRetryMs: 100 }),
    logger: silentLogger,
    ...options,
  });
}

/** Runs the readiness handler once and returns the status and the parsed body. */
function probe(handler: ReturnType<typeof readinessHandler>): {
  status: number;
  body: Record<string, unknown>;
} {
  const response: ReadinessResponse & { body: string } = {
    statusCode: 0,
    body: '',
    setHeader: () => undefined,
    end(body: string) {
      this.body = body;
    },
  };
  handler(undefined, response);
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as Record<string, unknown>,
  };
}

describe('client telemetry and health', () => {
  let server: TestingServer;
  before(async () => {
    server = await TestingServer.start();
  });
  after(() => server.close());

  it('health() and isReady() follow the lifecycle: LATENT, ready once connected, STOPPED after close', async () => {
    const client = clientOf(server);
    assert.equal(client.health().state, 'LATENT');
    assert.equal(client.health().ready, false);
    assert.equal(client.isReady(), false);
    await client.start();
    assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
    await client.exists('/');
    const health = client.health();
    assert.equal(health.ready, true);
    assert.equal(client.isReady(), true);
    assert.equal(health.state, 'STARTED');
    assert.equal(health.connectionState, 'CONNECTED');
    assert.match(health.sessionId ?? '', /^0x[0-9a-f]+$/);
    assert.equal(health.sessionId, `0x${client.sessionId!.toString(16)}`);
    assert.ok(health.sinceLastHeardMs !== undefined && health.sinceLastHeardMs < 5_000);
    assert.ok(health.sessionAgeMs !== undefined && health.sessionAgeMs >= 0);
    assert.equal(health.lostCount, 0);
    assert.equal(probe(readinessHandler(client)).status, 200);
    await client.close();
    assert.equal(client.health().state, 'STOPPED');
    assert.equal(client.health().ready, false);
    assert.equal(client.isReady(), false);
    assert.equal(probe(readinessHandler(client)).status, 503);
  });

  it('server stopped: not ready (503) at once, SUSPENDED counted; restarted: ready, a reconnect span and counters', async () => {
    const otel = new OtelCapture();
    const client = clientOf(server, {
      meterProvider: otel.meterProvider,
      tracerProvider: otel.tracerProvider,
    });
    const handler = readinessHandler(client);
    try {
      await client.start();
      assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
      await server.stop();
      await waitFor(() => client.connectionState === 'SUSPENDED', { message: 'SUSPENDED' });
      const down = probe(handler);
      assert.equal(down.status, 503);
      assert.equal(down.body.connectionState, 'SUSPENDED');
      assert.equal(client.health().suspendedCount, 1);
      assert.equal(
        await otel.total('zookeeper.client.connection.state', {
          'zookeeper.connection.state': 'SUSPENDED',
        }),
        1,
      );
      await server.restart();
      await waitFor(() => client.connectionState === 'RECONNECTED', {
        timeoutMs: 20_000,
        message: 'RECONNECTED',
      });
      assert.equal(probe(handler).status, 200);
      const health = client.health();
      assert.equal(health.reconnectedCount, 1);
      assert.equal(health.lostCount, 0);
      const changes = (state: string) =>
        otel.total('zookeeper.client.connection.state_changes', {
          'zookeeper.connection.state': state,
        });
      assert.equal(await changes('CONNECTED'), 1);
      assert.equal(await changes('SUSPENDED'), 1);
      assert.equal(await changes('RECONNECTED'), 1);
      assert.equal(
        await otel.total('zookeeper.client.reconnects', { 'zookeeper.session.new': false }),
        1,
      );
      assert.equal(await otel.total('zookeeper.client.session.lost'), 0);
      const [span, ...more] = otel.spans('zookeeper.client.reconnect');
      assert.equal(more.length, 0);
      assert.equal(span?.attributes['zookeeper.session.new'], false);
      assert.equal(span?.attributes['zookeeper.session.id'], health.sessionId);
    } finally {
      await client.close();
      await otel.shutdown();
    }
  });

  it('killSession: LOST counted once in the metrics and health(), a reconnect span with a "session lost" event, then a new session', async () => {
    const otel = new OtelCapture();
    // A short session, so the LOST path (and the new session after it) is over quickly.
    const client = clientOf(server, {
      sessionTimeoutMs: 4000,
      meterProvider: otel.meterProvider,
      tracerProvider: otel.tracerProvider,
    });
    try {
      await client.start();
      assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
      const sessionBefore = client.health().sessionId;
      await killSession(client, server.connectString);
      await waitFor(
        () => client.health().lostCount === 1 && client.connectionState === 'RECONNECTED',
        { timeoutMs: 20_000, message: 'LOST, then RECONNECTED' },
      );
      const health = client.health();
      assert.equal(health.lostCount, 1);
      assert.equal(health.ready, true);
      assert.notEqual(health.sessionId, sessionBefore);
      assert.equal(await otel.total('zookeeper.client.session.lost'), 1);
      assert.equal(
        await otel.total('zookeeper.client.connection.state_changes', {
          'zookeeper.connection.state': 'LOST',
        }),
        1,
      );
      assert.equal(
        await otel.total('zookeeper.client.reconnects', { 'zookeeper.session.new': true }),
        1,
      );
      // The takeover may first bounce the client on its old session (SUSPENDED, RECONNECTED
      // without a new session, its own span); exactly one span covers the loss.
      const lostSpans = otel
        .spans('zookeeper.client.reconnect')
        .filter((span) => span.events.some((event) => event.name === 'session lost'));
      assert.equal(lostSpans.length, 1);
      const [span] = lostSpans;
      assert.equal(span?.attributes['zookeeper.session.new'], true);
      assert.equal(span?.attributes['zookeeper.session.id'], health.sessionId);
      assert.equal(span?.status.code, SpanStatusCode.UNSET, 'a library leaves success unset');
    } finally {
      await client.close();
      await otel.shutdown();
    }
  });

  it('measures every request: db.client.operation.duration and a CLIENT span named after the operation, with the server, and error.type only on failure', async () => {
    const otel = new OtelCapture();
    const client = clientOf(server, {
      meterProvider: otel.meterProvider,
      tracerProvider: otel.tracerProvider,
    });
    try {
      await client.start();
      const path = await client.create(uniquePath('timed'), { data: Buffer.from('x') });
      for (let i = 0; i < 5; i++) await client.getData(path);
      for (let i = 0; i < 3; i++) {
        await assert.rejects(client.getData(`${path}-missing`), { code: 'NO_NODE' });
      }
      await client.getChildren(path, { watch: () => undefined });
      const duration = 'db.client.operation.duration';
      const common = {
        'db.system.name': 'zookeeper',
        'server.address': server.host,
        'server.port': server.port,
      };
      const getData = await otel.points(duration, { 'db.operation.name': 'getData' });
      assert.deepEqual(
        getData.map((point) => [point.attributes, point.count]),
        [
          [{ ...common, 'db.operation.name': 'getData' }, 5],
          [{ ...common, 'db.operation.name': 'getData', 'error.type': 'NO_NODE' }, 3],
        ],
        'no error.type on success, no result code',
      );
      const [ok] = getData;
      assert.ok(ok!.value > 0 && ok!.value < 5 * 5, `sum ${ok!.value} s`);
      assert.equal(await otel.total(duration, { 'db.operation.name': 'create' }), 1);
      assert.equal(await otel.total(duration, { 'db.operation.name': 'getChildren' }), 1);
      assert.equal((await otel.scopes()).get(duration), scopeKey(FRAMEWORK_SCOPE));

      const spans = otel.spans('getData');
      assert.equal(spans.length, 8);
      for (const span of spans) {
        assert.equal(span.kind, SpanKind.CLIENT);
        assert.equal(scopeKey(span.instrumentationScope), scopeKey(FRAMEWORK_SCOPE));
        assert.equal(span.attributes['db.system.name'], 'zookeeper');
        assert.equal(span.attributes['db.operation.name'], 'getData');
        assert.equal(span.attributes['server.address'], server.host);
        assert.equal(span.attributes['server.port'], server.port);
      }
      const failed = spans.filter((span) => span.status.code === SpanStatusCode.ERROR);
      assert.equal(failed.length, 3);
      assert.ok(failed.every((span) => span.attributes['error.type'] === 'NO_NODE'));
      const succeeded = spans.filter((span) => span.status.code === SpanStatusCode.UNSET);
      assert.equal(succeeded.length, 5);
      assert.ok(succeeded.every((span) => !('error.type' in span.attributes)));
      assert.equal(otel.spans('create').length, 1);

      const [age] = await otel.points('zookeeper.client.session.age');
      assert.ok(age !== undefined && age.value >= 0 && age.value < 60, `session age ${age?.value}`);
      const [used] = await otel.points('zookeeper.client.watch.budget.usage');
      assert.ok(used !== undefined && used.value >= Buffer.byteLength(path));
      assert.equal(await otel.total('zookeeper.client.watch.budget.limit'), 512 * 1024);
      const states = await otel.points('zookeeper.client.connection.state');
      assert.deepEqual(
        states.filter((p) => p.value === 1).map((p) => p.attributes['zookeeper.connection.state']),
        ['CONNECTED'],
      );
    } finally {
      await client.close();
      await otel.shutdown();
    }
  });

  it('without a tracer provider: no request spans, the metrics still recorded', async () => {
    const otel = new OtelCapture();
    const client = clientOf(server, { meterProvider: otel.meterProvider });
    try {
      await client.start();
      await client.exists('/');
      assert.equal(telemetryOf(client, FRAMEWORK_SCOPE).tracingEnabled, false);
      assert.equal(otel.spans().length, 0);
      assert.equal(
        await otel.total('db.client.operation.duration', { 'db.operation.name': 'exists' }),
        1,
      );
    } finally {
      await client.close();
      await otel.shutdown();
    }
  });

  it('an event-loop stall past the threshold is counted, with its length, in health() and the metrics', async () => {
    const otel = new OtelCapture();
    const client = clientOf(server, { sessionTimeoutMs: 3000, meterProvider: otel.meterProvider });
    try {
      await client.start();
      assert.equal(await client.blockUntilConnected({ timeoutMs: timing.ms(10_000) }), true);
      // The stall under test: 1.4 s of synchronous work (the threshold is 1 s).
      const until = performance.now() + 1400;
      while (performance.now() < until) {
        // busy
      }
      await waitFor(() => client.health().eventLoopStalls === 1, { message: 'stall counted' });
      assert.equal(await otel.total('zookeeper.client.event_loop.stalls'), 1);
      const [stall] = await otel.points('zookeeper.client.event_loop.stall.duration');
      assert.ok(
        stall !== undefined && stall.value >= 1 && stall.value < 10,
        `stall ${stall?.value} s`,
      );
    } finally {
      await client.close();
      await otel.shutdown();
    }
  });

  it('without an SDK nothing is timed; bad providers and handler options are refused before anything starts', () => {
    const client = clientOf(server);
    assert.equal(telemetryOf(client, FRAMEWORK_SCOPE).metricsEnabled, false);
    assert.throws(() => clientOf(server, { meterProvider: {} as never }), InvalidArgumentError);
    assert.throws(() => clientOf(server, { tracerProvider: 42 as never }), InvalidArgumentError);
    assert.throws(() => clientOf(server, { telemetryPaths: 'yes' as never }), InvalidArgumentError);
    assert.throws(() => readinessHandler({} as never), InvalidArgumentError);
    assert.throws(
      () => readinessHandler(client, { maxSinceLastHeardMs: -1 }),
      InvalidArgumentError,
    );
  });
});
