import assert from 'node:assert/strict';
import { trace } from '@opentelemetry/api';
import { describe, it } from 'node:test';
import { OtelCapture } from '@zkrecipes/test-support/otel-capture';
import { ClientTelemetry } from '../../src/telemetry/client-telemetry.js';

describe('ClientTelemetry.tracingEnabled', () => {
  it('is false while the global tracer provider has no SDK, true once one registers (even later)', async () => {
    const capture = new OtelCapture();
    const early = new ClientTelemetry();
    assert.equal(early.tracingEnabled, false, 'no SDK: spans go nowhere');
    assert.equal(early.metricsEnabled, false);
    trace.setGlobalTracerProvider(capture.tracerProvider);
    try {
      assert.equal(early.tracingEnabled, true, 'an SDK registered after the client was made');
      assert.equal(new ClientTelemetry().tracingEnabled, true);
      early.endSpan(early.startSpan('probe', {}));
      assert.equal(capture.spans('probe').length, 1, 'and its spans are recorded');
    } finally {
      trace.disable();
      await capture.shutdown();
    }
  });

  it('takes a provider passed in to record', async () => {
    const capture = new OtelCapture();
    assert.equal(
      new ClientTelemetry({ tracerProvider: capture.tracerProvider }).tracingEnabled,
      true,
    );
    await capture.shutdown();
  });
});
