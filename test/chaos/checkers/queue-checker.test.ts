import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkQueue } from './queue-checker.js';
import { call, take } from './hand-made.js';

const put = (item: string, t: number, outcome: 'ok' | 'fail' | 'unknown', done = true) =>
  call('queue', 0, 'put', { item }, t, done ? t + 1 : undefined, outcome);

describe('checkQueue', () => {
  it('accepts every item taken once, and an ambiguous put taken twice or never', () => {
    const result = checkQueue(
      [
        ...put('a', 0, 'ok'),
        ...put('b', 2, 'unknown'),
        ...put('c', 4, 'unknown'),
        ...put('d', 6, 'ok', false),
        take(3, 'a', 10),
        take(3, 'b', 11),
        take(4, 'b', 12),
        take(4, 'd', 13),
      ],
      [],
    );
    assert.deepEqual(result.violations, []);
  });

  it('counts a lost item, a duplicate, an item never put and an item left in the queue', () => {
    const result = checkQueue(
      [
        ...put('lost', 0, 'ok'),
        ...put('twice', 2, 'ok'),
        ...put('left', 3, 'ok'),
        take(3, 'twice', 10),
        take(4, 'twice', 11),
        take(4, 'ghost', 12),
      ],
      ['left'],
    );
    assert.equal(result.violations.length, 4);
    assert.match(result.summary ?? '', /lost 1, duplicated 1, never put 1, left 1/);
    const messages = result.violations.map((v) => v.message).join('\n');
    assert.match(messages, /1 acknowledged items lost.*lost/);
    assert.match(messages, /taken more than once.*twice/);
    assert.match(messages, /never put.*ghost/);
  });

  it('flags an item taken though its put failed', () => {
    const result = checkQueue([...put('x', 0, 'fail'), take(3, 'x', 5)], []);
    assert.equal(result.violations.length, 1);
    assert.match(result.violations[0]?.message ?? '', /put had failed/);
  });
});
