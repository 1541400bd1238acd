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
  it('sums sources with equal attributes, leaves out undefined and throwing ones, forgets removed ones, says when the last one went', () => {
    const sources = new GaugeSources();
    const removeFirst = sources.add({ r: 'q', p: 1 }, () => 3);
    const removeSecond = sources.add({ p: 1, r: 'q' }, () => 4);
    const removeOther = sources.add({ r: 'other' }, () => undefined);
    const removeBroken = sources.add({ r: 'broken' }, () => {
      throw new Error('boom');
    });
    assert.deepEqual(collect(sources), [[7, { r: 'q', p: 1 }]]);
    let emptied = 0;
    sources.onEmpty = () => emptied++;
    removeFirst();
    removeFirst();
    assert.deepEqual(collect(sources), [[4, { p: 1, r: 'q' }]]);
    assert.equal(emptied, 0);
    removeOther();
    removeBroken();
    assert.equal(emptied, 0);
    removeSecond();
    assert.equal(emptied, 1);
    assert.deepEqual(collect(sources), []);
  });
});
