// Locks called as an untyped JavaScript caller would: each mistake gets a typed error before
// anything is sent, and a hold on the same client is untouched by requests refused as too big.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { InvalidArgumentError, op, type FrameworkClient } from '@zkrecipes/framework';
import { mntr, TestingServer, uniquePath } from '@zkrecipes/testing';
import { connectedClient } from '@zkrecipes/test-support';
import {
  InterProcessMultiLock,
  InterProcessMutex,
  InterProcessReadWriteLock,
  InterProcessSemaphoreMutex,
  InterProcessSemaphoreV2,
  ReadLock,
  runInFlow,
  WriteLock,
} from '../src/index.js';

const invalid = (error: unknown): boolean => error instanceof InvalidArgumentError;
const notClients: unknown[] = [null, undefined, {}, 'client', 42];

describe('locks given bad input (real server)', () => {
  let server: TestingServer;
  let client: FrameworkClient;
  const packets = async (): Promise<number> =>
    (await mntr(server.host, server.port)).get('packets_received') ?? Number.NaN;

  before(async () => {
    server = await TestingServer.start();
    client = await connectedClient(server);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('constructors reject what is not a client, bad maxLeases and multi-lock arguments', () => {
    const asClient = (value: unknown): FrameworkClient => value as FrameworkClient;
    for (const notClient of notClients) {
      for (const construct of [
        () => new InterProcessMutex(asClient(notClient), '/l'),
        () => new InterProcessReadWriteLock(asClient(notClient), '/l'),
        () => new InterProcessSemaphoreV2(asClient(notClient), '/l', 2),
        () => new InterProcessSemaphoreMutex(asClient(notClient), '/l'),
        () => new InterProcessMultiLock(asClient(notClient), ['/l']),
      ]) {
        assert.throws(construct, invalid);
      }
    }
    for (const maxLeases of [Symbol('x'), 0, 1.5, '2', null]) {
      assert.throws(() => new InterProcessSemaphoreV2(client, '/l', maxLeases as number), invalid);
    }
    const multi = InterProcessMultiLock as unknown as new (...args: unknown[]) => unknown;
    for (const args of [[client, null], [client, []], [client], [null], [[]], [[{}]], [[null]]]) {
      assert.throws(() => new multi(...args), invalid, JSON.stringify(args.slice(1)));
    }
  });

  it('InterProcessSemaphoreV2.acquire with a qty that is not a whole number >= 1 (null, a Symbol, a string) is refused with nothing sent', async () => {
    const semaphore = new InterProcessSemaphoreV2(client, uniquePath('sem-qty'), 2);
    const before = await packets();
    for (const qty of [null, Symbol('q'), '1', 0, 1.5, 10n]) {
      await assert.rejects(
        semaphore.acquire(qty as never, 0),
        (error) => invalid(error) && /qty must be a whole number >= 1; got /.test(String(error)),
      );
    }
    // One packet: the four-letter word itself.
    assert.equal((await packets()) - before, 1);
  });

  it('constructors given an unknown option reject it with InvalidArgumentError naming the recipe and the option', () => {
    const cases: [string, () => unknown][] = [
      ['InterProcessMutex', () => new InterProcessMutex(client, '/m', { lockdata: 1 } as never)],
      [
        'InterProcessReadWriteLock',
        () => new InterProcessReadWriteLock(client, '/m', { pipeline: true } as never),
      ],
      [
        'InterProcessSemaphoreV2',
        () => new InterProcessSemaphoreV2(client, '/m', 2, { data: 1 } as never),
      ],
    ];
    for (const [name, construct] of cases) {
      assert.throws(construct, (error) => {
        assert.ok(error instanceof InvalidArgumentError, name);
        assert.match(error.message, new RegExp(`${name}: unknown option '\\w+'`));
        return true;
      });
    }
  });

  it('withLock without a function, lockData over the node limit, leases that are not leases: refused with nothing sent', async () => {
    const path = uniquePath('misuse');
    const mutex = new InterProcessMutex(client, path);
    const semaphore = new InterProcessSemaphoreV2(client, `${path}-sem`, 2);
    // The four-letter word is itself counted once per call: that is the baseline.
    const first = await packets();
    const before = await packets();
    const baseline = before - first;
    await assert.rejects(mutex.withLock('notfn' as unknown as () => void), invalid);
    assert.throws(
      () => new InterProcessMutex(client, path, { lockData: Buffer.alloc(2_000_000) }),
      invalid,
    );
    await assert.rejects(semaphore.acquire(3), invalid);
    await assert.rejects(semaphore.returnLease({} as never), invalid);
    await assert.rejects(semaphore.returnAll([{}] as never), invalid);
    await assert.rejects(semaphore.returnAll(null as never), invalid);
    assert.equal((await packets()) - before - baseline, 0);
    assert.equal(mutex.isAcquiredInThisProcess(), false);
  });

  it('getParticipantNodes on every lock and Lease.getData reject options that are not an object, or a signal that is not an AbortSignal, with InvalidArgumentError, with nothing sent', async () => {
    const path = uniquePath('query-misuse');
    const mutex = new InterProcessMutex(client, path);
    const rw = new InterProcessReadWriteLock(client, `${path}-rw`);
    const semaphore = new InterProcessSemaphoreV2(client, `${path}-sem`, 2);
    const [lease] = await semaphore.acquire(1);
    assert.ok(lease !== undefined);
    try {
      const queries: [string, (options: unknown) => Promise<unknown>][] = [
        ['mutex', (options) => mutex.getParticipantNodes(options as never)],
        ['read lock', (options) => rw.readLock().getParticipantNodes(options as never)],
        ['write lock', (options) => rw.writeLock().getParticipantNodes(options as never)],
        ['semaphore', (options) => semaphore.getParticipantNodes(options as never)],
        ['lease', (options) => lease.getData(options as never)],
      ];
      const badOptions: unknown[] = [null, 'fast', 42, [], { signal: 'abort' }, { signal: {} }];
      // The four-letter word is itself counted once per call: that is the baseline.
      const first = await packets();
      const before = await packets();
      const baseline = before - first;
      for (const [name, query] of queries) {
        for (const options of badOptions) {
          await assert.rejects(query(options), invalid, `${name} given ${String(options)}`);
        }
      }
      assert.equal((await packets()) - before - baseline, 0);
    } finally {
      await lease.close();
    }
  });

  it('runInFlow given something that is not a function throws InvalidArgumentError, not a TypeError', () => {
    for (const notFunction of [42, 'x', {}, null, undefined, [], Symbol('f')]) {
      assert.throws(
        () => runInFlow(notFunction as never),
        (error) => invalid(error) && /runInFlow\(fn\): fn must be a function/.test(String(error)),
        typeof notFunction,
      );
    }
  });

  it('WriteLock and ReadLock built directly check their options, the write lock and pair() as InterProcessReadWriteLock does', () => {
    const path = '/rw-halves';
    const badOptions: unknown[] = [null, 42, 'x', [], true, { lockData: Buffer.from('a') }];
    badOptions.push({ data: 'bytes' }, { data: 42 }, { data: Buffer.alloc(2_000_000) });
    badOptions.push({ pipelineRelease: 'yes' }, { pipelineRelease: 1 }, { pipelineRelease: null });
    const write = new WriteLock(client, path);
    for (const options of badOptions) {
      const label = JSON.stringify(options)?.slice(0, 40) ?? String(options);
      assert.throws(() => new WriteLock(client, path, options as never), invalid, label);
      assert.throws(() => new ReadLock(client, path, write, options as never), invalid, label);
    }
    const otherPath = new WriteLock(client, `${path}-other`);
    for (const notWriteLock of [
      undefined,
      null,
      42,
      {},
      new InterProcessMutex(client, path),
      otherPath,
    ]) {
      assert.throws(
        () => new ReadLock(client, path, notWriteLock as never),
        (error) =>
          invalid(error) && /ReadLock needs the WriteLock on \/rw-halves/.test(String(error)),
      );
    }
    const read = new ReadLock(client, path, write, {
      data: Buffer.from('r'),
      pipelineRelease: true,
    });
    for (const notReadLock of [
      undefined,
      42,
      {},
      write,
      new ReadLock(client, `${path}-other`, otherPath),
    ]) {
      assert.throws(() => write.pair(notReadLock as never), invalid);
    }
    write.pair(read);
  });

  it('acquire refuses an option it does not have, naming the one meant (a typo of signal would not bound the wait), with nothing sent', async () => {
    const path = uniquePath('typo');
    const mutex = new InterProcessMutex(client, path);
    await assert.rejects(
      mutex.acquire(1000, { sginal: AbortSignal.timeout(10) } as never),
      (error: unknown) =>
        error instanceof InvalidArgumentError &&
        /unknown option 'sginal' \(did you mean 'signal'\?\)/.test(error.message),
    );
    assert.equal(await client.exists(path), null, 'nothing created');
  });

  it('InterProcessMultiLock given the same path twice refuses it, naming the path (its second mutex would wait for the first)', () => {
    assert.throws(
      () => new InterProcessMultiLock(client, ['/multi-a', '/multi-b', '/multi-a']),
      (error) => invalid(error) && String(error).includes('/multi-a twice'),
    );
    assert.ok(new InterProcessMultiLock(client, ['/multi-a', '/multi-b']));
  });

  it('a held mutex keeps its lost signal un-aborted while oversize requests on its client are refused', async () => {
    const path = uniquePath('held');
    const mutex = new InterProcessMutex(client, path);
    await mutex.acquire();
    try {
      const hold = mutex.hold!;
      const big = Buffer.alloc(600_000, 1);
      await assert.rejects(
        client.transaction([0, 1, 2].map((i) => op.create(`${path}-big-${i}`, { data: big }))),
        invalid,
      );
      await assert.rejects(client.setData(path, Buffer.alloc(1_043_456)), invalid);
      assert.equal(hold.lost.aborted, false);
      assert.equal(hold.isValid(), true);
      assert.equal(client.connectionState, 'CONNECTED');
    } finally {
      await mutex.release();
    }
  });
});
