import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../src/cli-args.js';
import { errorLine, formatResultLine, resultFromSamples } from '../src/result-line.js';
import { Samples } from '../src/samples.js';
import { selectScenarios, type Scenario } from '../src/scenario.js';
import { PEER_SCENARIOS, SCENARIOS } from '../src/scenarios/index.js';

function samplesOf(values: readonly number[]): Samples {
  const samples = new Samples();
  for (const value of values) samples.add(value);
  return samples;
}

describe('Samples', () => {
  it('takes nearest-rank percentiles: element ceil(p/100 * n), p0 the minimum', () => {
    const samples = samplesOf([5, 1, 4, 2, 3, 10, 9, 8, 7, 6]);
    assert.equal(samples.percentile(0), 1);
    assert.equal(samples.percentile(50), 5);
    assert.equal(samples.percentile(90), 9);
    assert.equal(samples.percentile(99), 10);
    assert.equal(samples.percentile(100), 10);
  });

  it('gives the maximum as p99 for small n and undefined without samples', () => {
    assert.equal(samplesOf([3, 1, 2]).percentile(99), 3);
    assert.equal(new Samples().percentile(50), undefined);
  });
});

describe('formatResultLine', () => {
  it('prints the contract fields in order with 1 and 3 decimals', () => {
    const line = resultFromSamples('mutex.uncontended', samplesOf([1, 2, 3]), 558.64, 'x');
    assert.equal(
      formatResultLine(line),
      '{"impl":"zkrecipes","scenario":"mutex.uncontended","n":3,"ops_per_s":558.6,' +
        '"p50_ms":2.000,"p99_ms":3.000,"notes":"x; min_ms=1.000 p90_ms=3.000 max_ms=3.000"}',
    );
    const parsed = JSON.parse(formatResultLine(line)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), [
      'impl',
      'scenario',
      'n',
      'ops_per_s',
      'p50_ms',
      'p99_ms',
      'notes',
    ]);
  });

  it('prints null figures and an ERROR note for a crashed scenario', () => {
    assert.equal(
      formatResultLine(errorLine('queue.fifo', new Error('boom\nagain'))),
      '{"impl":"zkrecipes","scenario":"queue.fifo","n":0,"ops_per_s":null,"p50_ms":null,"p99_ms":null,' +
        '"notes":"ERROR: boom again"}',
    );
  });
});

describe('parseCliArgs', () => {
  it('parses the peer-bench flags', () => {
    assert.deepEqual(
      parseCliArgs(['--connect', 'h:1', '--scenario', 'mutex,queue.fifo', '--quick']),
      {
        connect: 'h:1',
        scenarios: ['mutex', 'queue.fifo'],
        quick: true,
        tls: false,
        list: false,
        help: false,
      },
    );
  });

  it('rejects unknown flags and missing values', () => {
    assert.throws(() => parseCliArgs(['--fast']), UsageError);
    assert.throws(() => parseCliArgs(['--tls', '--connect', 'h:1']), UsageError);
    assert.equal(parseCliArgs(['--tls']).tls, true);
    assert.throws(() => parseCliArgs(['--connect']), UsageError);
    assert.throws(() => parseCliArgs(['--scenario', '--quick']), UsageError);
  });
});

describe('selectScenarios', () => {
  const names = (list: readonly Scenario[]): string[] => list.map((s) => s.name);

  it('runs the peer scenarios in the peer order by default, extras only when named', () => {
    assert.deepEqual(names(selectScenarios(SCENARIOS, PEER_SCENARIOS, [])), names(PEER_SCENARIOS));
    assert.deepEqual(
      names(selectScenarios(SCENARIOS, PEER_SCENARIOS, ['all'])),
      names(PEER_SCENARIOS),
    );
    assert.ok(
      names(selectScenarios(SCENARIOS, PEER_SCENARIOS, ['extra'])).every((n) =>
        n.startsWith('extra.'),
      ),
    );
  });

  it('matches exactly or as a dotted prefix, also on secondary lines', () => {
    assert.deepEqual(names(selectScenarios(SCENARIOS, PEER_SCENARIOS, ['mutex'])), [
      'mutex.uncontended',
      'mutex.contended',
      'mutex.try0',
    ]);
    assert.deepEqual(names(selectScenarios(SCENARIOS, PEER_SCENARIOS, ['leader.failover'])), [
      'leader.failover',
      'leader.failover.close',
    ]);
    assert.deepEqual(
      names(selectScenarios(SCENARIOS, PEER_SCENARIOS, ['group.membership.leave'])),
      ['group.membership'],
    );
    assert.throws(() => selectScenarios(SCENARIOS, PEER_SCENARIOS, ['mute']), UsageError);
  });

  it('lists the same eleven lines as the peer', () => {
    assert.deepEqual(
      PEER_SCENARIOS.flatMap((s) => s.emits ?? [s.name]),
      [
        'mutex.uncontended',
        'mutex.contended',
        'mutex.try0',
        'rwlock.readers',
        'leader.failover',
        'leader.failover.close',
        'queue.fifo',
        'cache.children',
        'barrier.double',
        'group.membership',
        'group.membership.leave',
      ],
    );
  });
});
