import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isInvalidArgument } from '@zkrecipes/framework';
import { DELAY_ORDER, delayPrefix, epochOf, checkDelayUntil } from '../src/delay-order.js';
import { fixId, ID_ORDER, idOf, idPrefix, checkItemId } from '../src/id-order.js';
import { withoutSequence } from '../src/item-order.js';
import {
  PRIORITY_ORDER,
  priorityOf,
  priorityPrefix,
  checkPriority,
} from '../src/priority-order.js';

const seq = (n: number): string => String(n).padStart(10, '0');

describe('priority, delay and id queue node names (Curator 5.x)', () => {
  it('priority names: sign digit and 8 upper-case hex digits, as Curator 5.4 wrote them', () => {
    // Names Curator 5.4 created (curator-wire-facts.md), sequence included.
    const seen: [number, string][] = [
      [-2147483648, 'queue-0800000000000000008'],
      [-100, 'queue-0FFFFFF9C0000000005'],
      [0, 'queue-1000000000000000003'],
      [42, 'queue-10000002A0000000006'],
      [2147483647, 'queue-17FFFFFFF0000000009'],
    ];
    for (const [priority, name] of seen) {
      assert.equal(priorityPrefix(priority) + name.slice(-10), name);
      assert.equal(priorityOf(name), priority);
    }
    assert.equal(priorityPrefix(-1), 'queue-0FFFFFFFF');
  });

  it('priority order: lowest first, put order within a priority, a plain requeued name first', () => {
    const names = [
      priorityPrefix(5) + seq(1),
      priorityPrefix(-3) + seq(2),
      priorityPrefix(5) + seq(0),
      priorityPrefix(0) + seq(3),
      priorityPrefix(-2147483648) + seq(4),
      'queue-' + seq(9), // Curator's safe-mode requeue drops the priority
      'lock-0000000001',
    ];
    const { items, foreign } = PRIORITY_ORDER.sort(names);
    assert.deepEqual(items, [
      'queue-' + seq(9),
      priorityPrefix(-2147483648) + seq(4),
      priorityPrefix(-3) + seq(2),
      priorityPrefix(0) + seq(3),
      priorityPrefix(5) + seq(0),
      priorityPrefix(5) + seq(1),
    ]);
    assert.deepEqual(foreign, ['lock-0000000001']);
    assert.equal(PRIORITY_ORDER.requeuePrefix(priorityPrefix(7) + seq(3)), priorityPrefix(7));
  });

  it('delay names: epoch as upper-case hex between bars; order by due time, then sequence', () => {
    assert.equal(delayPrefix(1795508187778) + seq(0), 'queue-|1A20CA0B282|0000000000');
    assert.equal(epochOf('queue-|1A20CA0B282|0000000000'), 1795508187778);
    assert.equal(delayPrefix(255), 'queue-|000000FF|');
    assert.equal(epochOf('queue-' + seq(4)), 0); // Curator's requeue: due at once
    const names = [
      delayPrefix(3000) + seq(0),
      delayPrefix(1000) + seq(2),
      delayPrefix(1000) + seq(1),
      'queue-' + seq(3),
    ];
    assert.deepEqual(DELAY_ORDER.sort(names).items, [
      'queue-' + seq(3),
      delayPrefix(1000) + seq(1),
      delayPrefix(1000) + seq(2),
      delayPrefix(3000) + seq(0),
    ]);
    assert.equal(DELAY_ORDER.dueInMs?.(delayPrefix(3000) + seq(0), 1000), 2000);
    assert.equal(DELAY_ORDER.requeuePrefix(delayPrefix(3000) + seq(0)), delayPrefix(3000));
  });

  it('id names: / and | become _, ids parsed between the first two bars, FIFO by sequence', () => {
    assert.equal(fixId('x/y|z'), 'x_y_z');
    assert.equal(idPrefix('x/y|z'), 'queue-|x_y_z|');
    assert.equal(idOf('queue-|abc|0000000003'), 'abc');
    assert.equal(idOf('queue-0000000003'), undefined);
    const names = [idPrefix('b') + seq(2), idPrefix('a') + seq(3), idPrefix('z') + seq(1)];
    assert.deepEqual(ID_ORDER.sort(names).items, [
      idPrefix('z') + seq(1),
      idPrefix('b') + seq(2),
      idPrefix('a') + seq(3),
    ]);
    assert.equal(ID_ORDER.requeuePrefix(idPrefix('a') + seq(3)), idPrefix('a'));
    assert.equal(withoutSequence('queue-' + seq(12)), 'queue-');
  });

  it('bad priorities, delays and ids are InvalidArgumentErrors', () => {
    for (const bad of [1.5, 2 ** 31, -(2 ** 31) - 1, Number.NaN, '1', undefined]) {
      assert.throws(() => checkPriority(bad), isInvalidArgument, String(bad));
    }
    for (const bad of [Number.NaN, Infinity, -Infinity, 0, -5, '1000', new Date(Number.NaN)]) {
      assert.throws(() => checkDelayUntil(bad), isInvalidArgument, String(bad));
    }
    assert.equal(checkDelayUntil(new Date(1234)), 1234);
    assert.equal(checkDelayUntil(1234.9), 1234);
    for (const bad of ['', undefined, 42, null]) {
      assert.throws(() => checkItemId(bad), isInvalidArgument, String(bad));
    }
  });
});
