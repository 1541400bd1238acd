import {
  type FrameworkClient,
  InvalidArgumentError,
  type SignalOptions,
} from '@zkrecipes/framework';
import {
  booleanOption,
  checkClient,
  checkRecipeOptions,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { checkNodeData } from './check-arguments.js';
import type { FlowScope } from './flow-scope.js';
import { IllegalMonitorStateError } from './illegal-monitor-state-error.js';
import type { LockInternalsConfig } from './lock-internals.js';
import { READ_DRIVER, WRITE_DRIVER } from './lock-driver.js';
import { LockName } from './lock-node-names.js';
import {
  flowHoldOf,
  ReentrantLock,
  unscopedHoldCount,
  type AttemptShape,
} from './reentrant-lock.js';

/** Options of {@link InterProcessReadWriteLock}. */
export interface InterProcessReadWriteLockOptions {
  /** Data stored in every lock node of both halves (Curator's `lockData`). Default: empty. */
  readonly lockData?: Uint8Array | undefined;
  /** As InterProcessMutex's `pipelineRelease`, for both halves. Default: false. */
  readonly pipelineRelease?: boolean | undefined;
}

/** What the two halves of a read/write lock share: node data and release behaviour. */
export interface ReadWriteLockHalfOptions {
  /** Data stored in each lock node of this half. Default: empty. */
  readonly data?: Uint8Array | undefined;
  /**
   * As InterProcessMutex's `pipelineRelease`: `release()` resolves once the delete is sent.
   * Default: false.
   */
  readonly pipelineRelease?: boolean | undefined;
}

/**
 * A half's options, checked as InterProcessReadWriteLock checks its own (`recipe` names the
 * class in the message): an object or undefined, known keys only, `data` bytes within the node
 * limit, `pipelineRelease` a boolean.
 */
function checkHalfOptions(recipe: string, options: unknown): ReadWriteLockHalfOptions {
  checkRecipeOptions(recipe, options, ['data', 'pipelineRelease']);
  const given = options as ReadWriteLockHalfOptions | undefined;
  return {
    data: checkNodeData('data', given?.data),
    pipelineRelease: booleanOption('pipelineRelease', given?.pipelineRelease, false),
  };
}

function config(
  lockName: string,
  options: ReadWriteLockHalfOptions,
): Omit<LockInternalsConfig, 'driver' | 'maxLeases'> {
  return { lockName, ...options, component: 'InterProcessReadWriteLock' };
}

async function onlyNamed(nodes: Promise<string[]>, lockName: string): Promise<string[]> {
  const names = await nodes;
  return names.filter((path) => path.slice(path.lastIndexOf('/') + 1).includes(lockName));
}

/**
 * The exclusive half of {@link InterProcessReadWriteLock} (`_c_<uuid>-__WRIT__<sequence>`
 * nodes): waits for every reader and writer queued before it. Reentrant within a flow. A flow
 * that holds the read lock cannot take the write lock (an upgrade would wait for itself
 * forever): acquire() refuses with an IllegalMonitorStateError instead.
 */
export class WriteLock extends ReentrantLock {
  /** Set by the read/write lock right after construction. */
  #readLock: ReadLock | undefined;

  constructor(client: FrameworkClient, path: string, options: ReadWriteLockHalfOptions = {}) {
    super(client, path, {
      ...config(LockName.WRITE, checkHalfOptions('WriteLock', options)),
      driver: WRITE_DRIVER,
      maxLeases: 1,
    });
  }

  /**
   * @internal Pairs the write lock with its read lock (for the upgrade check): a ReadLock on
   * the same path, else InvalidArgumentError.
   */
  pair(readLock: ReadLock): void {
    if (!(readLock instanceof ReadLock) || readLock.path !== this.path) {
      throw new InvalidArgumentError(
        `WriteLock.pair() takes the ReadLock on ${this.path}; got ${describeOther(readLock)}`,
      );
    }
    this.#readLock = readLock;
  }

  /**
   * The write nodes (holder first, then queued writers), as Curator's WriteLock lists them.
   * Aborting `signal` rejects with its reason at once.
   */
  override async getParticipantNodes(options: SignalOptions = {}): Promise<string[]> {
    return onlyNamed(super.getParticipantNodes(options), LockName.WRITE);
  }

  /** @internal */
  protected override prepareAttempt(_scope: FlowScope | undefined): AttemptShape {
    if (this.#readLock !== undefined && flowHoldOf(this.#readLock) !== undefined) {
      throw new IllegalMonitorStateError(
        'cannot upgrade a read lock to the write lock (it would wait for itself forever); ' +
          'release the read lock first',
        { path: this.path },
      );
    }
    return {};
  }
}

/**
 * Why a read acquire outside any flow is refused while this lock's write lock is held outside
 * any flow: such a hold belongs to no flow, so the read acquire cannot be the holder's
 * downgrade; it would queue behind this process's own write node and wait for itself.
 */
const DOWNGRADE_OUTSIDE_A_FLOW =
  'the read lock would wait for the write lock this process holds outside a flow ' +
  '(forever without a timeout): outside runInFlow() or withLock() a hold belongs to no flow, ' +
  'so a read acquire cannot be the write holder downgrading. To downgrade, take the write ' +
  'lock, then the read lock, then release the write lock, all inside one ' +
  'runInFlow(async () => { ... }) or writeLock().withLock(...); or release the write lock ' +
  'first. A reader that is not the writer waits as usual inside a flow of its own ' +
  '(readLock().withLock(...))';

/** Any number of readers may hold at once. */
const UNCOUNTED_READERS = 0x3fffffff;

/**
 * The shared half of {@link InterProcessReadWriteLock} (`_c_<uuid>-__READ__<sequence>` nodes):
 * holds as soon as no writer is queued ahead of it. Reentrant within a flow.
 *
 * Downgrade: a flow holding the write lock gets the read lock at once, and its read node takes
 * the write node's place in line (Curator 5.5+: a plain ephemeral `__READ__<write sequence>`),
 * so releasing the write lock afterwards cannot let a queued writer in ahead of it.
 *
 * Outside any flow, a read acquire while this process holds the write lock outside any flow
 * is refused with an IllegalMonitorStateError before anything is sent: it cannot be a
 * downgrade (a hold outside a flow has no owner to compare with) and would wait for this
 * process's own write node. A reader in a flow of its own waits for that write hold as usual.
 */
export class ReadLock extends ReentrantLock {
  readonly #writeLock: WriteLock;

  constructor(
    client: FrameworkClient,
    path: string,
    writeLock: WriteLock,
    options: ReadWriteLockHalfOptions = {},
  ) {
    // Its downgrade and the read-outside-a-flow check read this write lock's holds.
    if (!(writeLock instanceof WriteLock) || writeLock.path !== path) {
      throw new InvalidArgumentError(
        `ReadLock needs the WriteLock on ${String(path)}; got ${describeOther(writeLock)}`,
      );
    }
    super(client, path, {
      ...config(LockName.READ, checkHalfOptions('ReadLock', options)),
      driver: READ_DRIVER,
      // Readers are not counted (the read driver ignores it). A small integer, as every other
      // lock's: a number outside V8's small-integer range would change the config's field
      // representation for every lock in the process.
      maxLeases: UNCOUNTED_READERS,
    });
    this.#writeLock = writeLock;
  }

  /**
   * The read nodes in lock order, as Curator's ReadLock lists them. Aborting `signal` rejects
   * with its reason at once.
   */
  override async getParticipantNodes(options: SignalOptions = {}): Promise<string[]> {
    return onlyNamed(super.getParticipantNodes(options), LockName.READ);
  }

  /** @internal */
  protected override prepareAttempt(scope: FlowScope | undefined): AttemptShape {
    const write = flowHoldOf(this.#writeLock);
    if (write === undefined) {
      if (scope === undefined && unscopedHoldCount(this.#writeLock) > 0) {
        throw new IllegalMonitorStateError(DOWNGRADE_OUTSIDE_A_FLOW, { path: this.path });
      }
      return {};
    }
    const at = write.lockPath.lastIndexOf(LockName.WRITE);
    return {
      alwaysHolds: true,
      sortingSequence: write.lockPath.slice(at + LockName.WRITE.length),
      // Its node takes the write node's place in line, and a writer queued behind that may
      // have been created before it: the write hold's token keeps the order.
      fencingToken: write.fencingToken,
    };
  }
}

/** The other half given: a lock on another path, or what it is. */
function describeOther(lock: unknown): string {
  return lock instanceof ReentrantLock
    ? `a ${lock.constructor.name} on ${lock.path}`
    : describeValue(lock);
}

/**
 * A fair read/write lock across processes (Curator's `InterProcessReadWriteLock`): any number
 * of readers share it while no writer holds it; a writer holds it alone. Both halves queue
 * under the same path, so a writer waits for the readers ahead of it and stops the readers
 * behind it. Node names and order are Curator's (`__READ__` / `__WRIT__`), including the 5.5+
 * downgrade naming. See docs/recipes/locks.md.
 *
 * @example
 * const rw = new InterProcessReadWriteLock(client, '/app/locks/catalog');
 * await rw.readLock().withLock(async () => render(await load()));
 */
export class InterProcessReadWriteLock {
  readonly #readLock: ReadLock;
  readonly #writeLock: WriteLock;

  constructor(
    client: FrameworkClient,
    path: string,
    options: InterProcessReadWriteLockOptions = {},
  ) {
    checkClient('InterProcessReadWriteLock', client);
    checkRecipeOptions('InterProcessReadWriteLock', options, ['lockData', 'pipelineRelease']);
    const half: ReadWriteLockHalfOptions = {
      data: checkNodeData('lockData', options.lockData),
      pipelineRelease: booleanOption('pipelineRelease', options.pipelineRelease, false),
    };
    this.#writeLock = new WriteLock(client, path, half);
    this.#readLock = new ReadLock(client, path, this.#writeLock, half);
    this.#writeLock.pair(this.#readLock);
  }

  /** The lock readers take (Curator's `readLock()`); the same object every call. */
  readLock(): ReadLock {
    return this.#readLock;
  }

  /** The lock writers take (Curator's `writeLock()`); the same object every call. */
  writeLock(): WriteLock {
    return this.#writeLock;
  }
}
