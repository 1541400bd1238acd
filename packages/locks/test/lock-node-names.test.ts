// Pure functions: no server needed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LockName, lockSequence, sortParticipants } from '../src/index.js';
import { foreignRecipe, ParticipantSorter } from '../src/lock-node-names.js';
import { MUTEX_DRIVER, READ_DRIVER, WRITE_DRIVER } from '../src/lock-driver.js';

const UUID_A = '_c_3289752c-07a2-420d-ada0-bfaee14d583b-';
const UUID_B = '_c_154b2112-778d-4c43-80c3-4a002fe8e301-';

describe('lock node names', () => {
  it('reads the sequence after the last lock name, with or without the protection prefix', () => {
    assert.equal(lockSequence(`${UUID_A}lock-0000000042`, [LockName.MUTEX]), 42);
    assert.equal(lockSequence('lock-0000000007', [LockName.MUTEX]), 7);
    assert.equal(lockSequence('lock-lock-0000000003', [LockName.MUTEX]), 3);
    assert.equal(lockSequence(`${UUID_A}__READ__0000000005`, [LockName.READ, LockName.WRITE]), 5);
    assert.equal(lockSequence(`${UUID_B}__WRIT__0000000006`, [LockName.READ, LockName.WRITE]), 6);
  });

  it('reads sequences past the signed 32-bit wrap as negative numbers', () => {
    assert.equal(lockSequence('lock--000000003', [LockName.MUTEX]), -3);
    assert.equal(lockSequence('lock--2147483648', [LockName.MUTEX]), -2147483648);
    assert.equal(lockSequence('lock-2147483647', [LockName.MUTEX]), 2147483647);
  });

  it('gives no sequence for names it cannot parse', () => {
    for (const name of ['lock-', 'lock-12', 'lock-00000000001', 'lock-abcdefghij', 'other', 'x']) {
      assert.equal(lockSequence(name, [LockName.MUTEX]), undefined, name);
    }
  });

  it('sorts participants by sequence, wrap-aware, and leaves out foreign children', () => {
    const sorted = sortParticipants(
      [
        `${UUID_A}lock--2147483648`,
        'garbage',
        `${UUID_B}lock-2147483646`,
        'lock-2147483647',
        `${UUID_A}lock-note`,
        'lock--2147483647',
      ],
      [LockName.MUTEX],
    );
    assert.deepEqual(sorted, [
      `${UUID_B}lock-2147483646`,
      'lock-2147483647',
      `${UUID_A}lock--2147483648`,
      'lock--2147483647',
    ]);
  });

  it('orders a downgraded read node (same sequence as its write node) deterministically', () => {
    const children = [
      `${UUID_B}__WRIT__0000000006`,
      `${UUID_A}__WRIT__0000000005`,
      `${UUID_B}__READ__0000000005`,
    ];
    const sorted = sortParticipants(children, [LockName.READ, LockName.WRITE]);
    assert.equal(sorted.at(-1), `${UUID_B}__WRIT__0000000006`);
    assert.deepEqual(
      sortParticipants([...children].reverse(), [LockName.READ, LockName.WRITE]),
      sorted,
    );
  });

  it('recognises the node names of the other recipes on a lock path', () => {
    assert.equal(foreignRecipe([`${UUID_A}lock-0000000001`], 'InterProcessMutex'), undefined);
    assert.match(
      foreignRecipe([`${UUID_A}__WRIT__0000000001`], 'InterProcessMutex') ?? '',
      /ReadWriteLock/,
    );
    assert.match(foreignRecipe(['leases', 'locks'], 'InterProcessMutex') ?? '', /Semaphore/);
    assert.match(foreignRecipe([`${UUID_A}latch-0000000001`], 'InterProcessMutex') ?? '', /Latch/);
    assert.match(
      foreignRecipe([`${UUID_A}lock-0000000001`], 'InterProcessReadWriteLock') ?? '',
      /Mutex/,
    );
    assert.equal(foreignRecipe(['notes', 'lock-x'], 'InterProcessReadWriteLock'), undefined);
  });

  it('a lock sorting read after read (names parsed once) answers as sortParticipants and foreignRecipe do', () => {
    const markers = [LockName.MUTEX];
    const sorter = new ParticipantSorter('InterProcessMutex', markers);
    const reads = [
      [`${UUID_A}lock-0000000002`, 'notes', `${UUID_B}lock-0000000001`],
      // the same names again, one gone, one new (past the wrap), one foreign child of no recipe
      [`${UUID_B}lock-0000000001`, `${UUID_A}lock--000000004`, 'notes', 'lock-x'],
      [`${UUID_A}lock--000000004`, `${UUID_A}lock-0000000002`, `${UUID_B}lock-0000000001`],
    ];
    for (const children of reads) {
      assert.deepEqual(sorter.sort(children), { sorted: sortParticipants(children, markers) });
    }
    // Another recipe's node turns up in a later read: reported, whatever was known before.
    const mixed = [`${UUID_B}lock-0000000001`, `${UUID_A}latch-0000000003`];
    const result = sorter.sort(mixed);
    assert.ok('foreign' in result);
    assert.equal(result.foreign, foreignRecipe(mixed, 'InterProcessMutex'));
    // ...and in every read after it, as long as it is there.
    assert.ok('foreign' in sorter.sort([...mixed].reverse()));
    assert.deepEqual(sorter.sort(reads[0]!), { sorted: sortParticipants(reads[0]!, markers) });
  });
});

describe('lock drivers', () => {
  it('mutex: the first holds, every other watches the one right ahead of it', () => {
    const sorted = ['a-lock-0000000001', 'b-lock-0000000002', 'c-lock-0000000003'];
    assert.deepEqual(MUTEX_DRIVER.verdict(sorted, 'a-lock-0000000001', 1), { holds: true });
    assert.deepEqual(MUTEX_DRIVER.verdict(sorted, 'c-lock-0000000003', 1), {
      holds: false,
      watch: 'b-lock-0000000002',
    });
    assert.equal(MUTEX_DRIVER.blocked([], 1), false);
    assert.equal(MUTEX_DRIVER.blocked(sorted, 1), true);
  });

  it('read lock: readers share until a writer is queued ahead, then wait for the first writer', () => {
    const sorted = ['r1__READ__01', 'r2__READ__02', 'w3__WRIT__03', 'r4__READ__04', 'w5__WRIT__05'];
    assert.deepEqual(READ_DRIVER.verdict(sorted, 'r2__READ__02', 0), { holds: true });
    assert.deepEqual(READ_DRIVER.verdict(sorted, 'r4__READ__04', 0), {
      holds: false,
      watch: 'w3__WRIT__03',
    });
    assert.equal(READ_DRIVER.blocked(['r1__READ__01'], 0), false);
    assert.equal(READ_DRIVER.blocked(sorted, 0), true);
  });

  it('write lock: waits for every reader and writer ahead of it', () => {
    const sorted = ['r1__READ__01', 'w2__WRIT__02'];
    assert.deepEqual(WRITE_DRIVER.verdict(sorted, 'w2__WRIT__02', 1), {
      holds: false,
      watch: 'r1__READ__01',
    });
    assert.equal(WRITE_DRIVER.blocked(['r1__READ__01'], 1), true);
  });
});
