import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Attributes, ObservableResult } from '@opentelemetry/api';
import { GaugeSources } from '../../src/telemetry/gauge-sources.js';

function collect(sources: GaugeSources): [number, Attributes | undefined][] {
  const seen: [number, Attributes | undefined][] = [];
  const result: ObservableResult = {
    observe: (value, attributes) => seen.push([value, attributes]),
  };
  sources.report(result);
  return seen;
}

describe('GaugeSources', () => {
  it('sums sources with equal attributes, leaves out undefined and throwing ones, forgets removed ones', () => {
    const sources = new GaugeSources();
    const removeFirst = sources.add({ r: 'q', p: 1 }, () => 3);
    sources.add({ p: 1, r: 'q' }, () => 4);
    sources.add({ r: 'other' }, () => undefined);
    sources.add({ r: 'broken' }, () => {
      throw new Error('boom');
    });
    assert.deepEqual(collect(sources), [[7, { r: 'q', p: 1 }]]);
    removeFirst();
    assert.deepEqual(collect(sources), [[4, { p: 1, r: 'q' }]]);
  });
});
