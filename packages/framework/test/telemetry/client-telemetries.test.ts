import assert from 'node:assert/strict';
import { metrics, trace } from '@opentelemetry/api';
import { describe, it } from 'node:test';
import { OtelCapture, scopeKey } from '@zkrecipes/test-support/otel-capture';
import { ClientTelemetries } from '../../src/telemetry/client-telemetries.js';

const LOCKS = { name: '@zkrecipes/locks', version: '1.2.3' };
const QUEUES = { name: '@zkrecipes/queues', version: '4.5.6' };

describe('ClientTelemetries', () => {
  it('with both providers given: known at once, each scope reporting under its own name and version', async () => {
    const capture = new OtelCapture();
    try {
      const telemetries = new ClientTelemetries({
        meterProvider: capture.meterProvider,
        tracerProvider: capture.tracerProvider,
      });
      assert.equal(telemetries.ready, undefined);
      const locks = telemetries.forScope(LOCKS);
      assert.equal(telemetries.forScope({ ...LOCKS }), locks, 'one per scope');
      assert.equal(locks.metricsEnabled, true);
      assert.equal(locks.tracingEnabled, true);
      locks.counter('probe.locks', { description: 'd', unit: '{x}' }).add(1);
      telemetries
        .forScope(QUEUES)
        .counter('probe.queues', { description: 'd', unit: '{x}' })
        .add(1);
      locks.endSpan(locks.startSpan('probe', {}));
      const scopes = await capture.scopes();
      assert.equal(scopes.get('probe.locks'), '@zkrecipes/locks@1.2.3');
      assert.equal(scopes.get('probe.queues'), '@zkrecipes/queues@4.5.6');
      const [span] = capture.spans('probe');
      assert.equal(scopeKey(span!.instrumentationScope), '@zkrecipes/locks@1.2.3');
      assert.equal(span!.status.code, 0, 'a success leaves the status unset');
    } finally {
      await capture.shutdown();
    }
  });

  it('the global providers: nothing records until an SDK registers; tracing follows a tracer provider registered later', async () => {
    const capture = new OtelCapture();
    try {
      const early = new ClientTelemetries();
      const telemetry = early.forScope(LOCKS);
      assert.equal(telemetry.metricsEnabled, false, 'not known yet');
      await early.ready;
      assert.equal(telemetry.tracingEnabled, false, 'no SDK: spans go nowhere');
      assert.equal(telemetry.metricsEnabled, false);
      trace.setGlobalTracerProvider(capture.tracerProvider);
      assert.equal(telemetry.tracingEnabled, true, 'an SDK registered after the client was made');
      telemetry.endSpan(telemetry.startSpan('probe', {}), new TypeError('bad'));
      const [span] = capture.spans('probe');
      assert.equal(span?.attributes['error.type'], 'TypeError');
      assert.equal(span?.status.code, 2);
    } finally {
      trace.disable();
      await capture.shutdown();
    }
  });

  it('a gauge observed before the global meter provider is known is reported once it is', async () => {
    const capture = new OtelCapture();
    metrics.setGlobalMeterProvider(capture.meterProvider);
    try {
      const telemetries = new ClientTelemetries();
      const telemetry = telemetries.forScope(QUEUES);
      let reads = 0;
      const stop = telemetry.observe('probe.gauge', { description: 'd', unit: '{x}' }, {}, () => {
        reads += 1;
        return 7;
      });
      telemetry.counter('probe.early', { description: 'd', unit: '{x}' }).add(1);
      await telemetries.ready;
      assert.equal(telemetry.metricsEnabled, true);
      assert.equal(await capture.total('probe.gauge'), 7);
      assert.equal(await capture.total('probe.early'), 0, 'counted before: a no-op');
      stop();
      const readsBefore = reads;
      await capture.metrics();
      assert.equal(reads, readsBefore, 'its callback went with its last source');
    } finally {
      metrics.disable();
      await capture.shutdown();
    }
  });
});
