// An in-memory ZooKeeperOperations for unit tests of the client layer: a tree with stats,
// ephemeral owners, sequential names, one-shot watches, atomic multi, and injected failures
// (before the server applies an op, or after it applied it and "lost the reply").
import { TransactionFailedError } from '../../src/errors/transaction-failed-error.js';
import { errorFromCode } from '../../src/errors/error-from-code.js';
import { ZooKeeperErrorCode } from '../../src/errors/zookeeper-error-code.js';
import type { ZooKeeperError } from '../../src/errors/zookeeper-error.js';
import type { ZooKeeperOperations } from '../../src/zk/zookeeper-operations.js';
import type {
  Acl,
  CreateMode,
  Stat,
  WatchedEvent,
  Watcher,
  WireTransactionOp,
  WireTransactionResult,
} from '../../src/zk/zookeeper-types.js';

export type FakeOpName = keyof ZooKeeperOperations;

export interface FakeCall {
  readonly op: FakeOpName;
  readonly path: string;
}

interface FakeNode {
  data: Buffer;
  acl: readonly Acl[];
  czxid: bigint;
  mzxid: bigint;
  pzxid: bigint;
  ctime: number;
  mtime: number;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: bigint;
  children: Set<string>;
}

interface Injection {
  readonly op: FakeOpName;
  readonly path: ((path: string) => boolean) | undefined;
  readonly error: () => Error;
  /** 'before': fail without applying; 'after': apply, then fail (the reply was lost). */
  readonly when: 'before' | 'after';
  /** Runs when the injection fires, e.g. to swap the session between attempts. */
  readonly then: (() => void) | undefined;
}

function parentAndName(path: string): { parent: string; name: string } {
  const i = path.lastIndexOf('/');
  return { parent: i === 0 ? '/' : path.slice(0, i), name: path.slice(i + 1) };
}

function err(code: number, path?: string): ZooKeeperError {
  return errorFromCode(code, { path });
}

export class FakeZooKeeper implements ZooKeeperOperations {
  /** Every call received, in order. */
  readonly calls: FakeCall[] = [];
  /** The session that owns ephemerals created from now on. */
  sessionId = 0x1001n;
  #zxid = 1n;
  #nodes = new Map<string, FakeNode>();
  // Arrays, not sets: a retried read may register the same watcher twice, and the client must
  // cope with the server (or the wire client) holding both.
  readonly #dataWatches = new Map<string, Watcher[]>();
  readonly #childWatches = new Map<string, Watcher[]>();
  // While a multi runs, its watch events wait here: they fire only if it commits.
  #deferredEvents: (() => void)[] | undefined;
  readonly #injections: Injection[] = [];

  constructor() {
    this.#nodes.set('/', this.#newNode(Buffer.alloc(0), [], 0n));
  }

  /** Makes the next matching call fail with `error` (CONNECTION_LOSS by default). */
  failNext(
    op: FakeOpName,
    options: {
      when?: 'before' | 'after';
      path?: (path: string) => boolean;
      code?: number;
      times?: number;
      then?: () => void;
    } = {},
  ): void {
    const { when = 'before', code = ZooKeeperErrorCode.CONNECTION_LOSS, times = 1 } = options;
    for (let i = 0; i < times; i++) {
      this.#injections.push({
        op,
        path: options.path,
        when,
        error: () => err(code),
        then: options.then,
      });
    }
  }

  /** Pending injections not yet consumed. */
  get pendingInjections(): number {
    return this.#injections.length;
  }

  /** Calls of one kind. */
  callsOf(op: FakeOpName): FakeCall[] {
    return this.calls.filter((call) => call.op === op);
  }

  /** Test setup without going through calls or injections. */
  seed(path: string, data = '', options: { ephemeralOwner?: bigint } = {}): void {
    this.#apply('create', path, () =>
      this.#create(
        path,
        Buffer.from(data),
        [],
        options.ephemeralOwner ? 'EPHEMERAL' : 'PERSISTENT',
        options.ephemeralOwner,
      ),
    );
  }

  has(path: string): boolean {
    return this.#nodes.has(path);
  }

  dataOf(path: string): string | undefined {
    return this.#nodes.get(path)?.data.toString();
  }

  aclOf(path: string): readonly Acl[] | undefined {
    return this.#nodes.get(path)?.acl;
  }

  childrenOf(path: string): string[] {
    return [...(this.#nodes.get(path)?.children ?? [])].sort();
  }

  /** Every path in the tree, sorted. */
  paths(): string[] {
    return [...this.#nodes.keys()].sort();
  }

  /** Server-side expiry of a session: its ephemerals go. */
  expireSession(sessionId: bigint): void {
    for (const [path, node] of [...this.#nodes]) {
      if (node.ephemeralOwner === sessionId) this.#remove(path);
    }
  }

  /** Fires a watch from outside (e.g. to test SESSION_EXPIRED delivery). */
  fireDataWatches(event: WatchedEvent): void {
    this.#fire(this.#dataWatches, event.path, event.type);
  }

  /** The mode each node was created in (a container or TTL node is otherwise a plain node here). */
  readonly modes = new Map<string, CreateMode>();

  create(path: string, data: Buffer, acl: readonly Acl[], mode: CreateMode): Promise<string> {
    return this.#call('create', path, () => this.#create(path, data, acl, mode, this.sessionId));
  }

  create2(
    path: string,
    data: Buffer,
    acl: readonly Acl[],
    mode: CreateMode,
  ): Promise<{ path: string; stat: Stat }> {
    return this.#call('create2', path, () => {
      const created = this.#create(path, data, acl, mode, this.sessionId);
      return { path: created, stat: this.#stat(this.#nodes.get(created)!) };
    });
  }

  delete(path: string, version: number): Promise<void> {
    return this.#call('delete', path, () => {
      const node = this.#nodes.get(path);
      if (!node) throw err(ZooKeeperErrorCode.NO_NODE, path);
      if (version !== -1 && version !== node.version) {
        throw err(ZooKeeperErrorCode.BAD_VERSION, path);
      }
      if (node.children.size > 0) throw err(ZooKeeperErrorCode.NOT_EMPTY, path);
      this.#remove(path);
    });
  }

  exists(path: string, watcher?: Watcher): Promise<Stat | null> {
    return this.#call('exists', path, () => {
      if (watcher) this.#watch(this.#dataWatches, path, watcher);
      const node = this.#nodes.get(path);
      return node ? this.#stat(node) : null;
    });
  }

  getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: Stat }> {
    return this.#call('getData', path, () => {
      const node = this.#nodes.get(path);
      if (!node) throw err(ZooKeeperErrorCode.NO_NODE, path);
      if (watcher) this.#watch(this.#dataWatches, path, watcher);
      return { data: Buffer.from(node.data), stat: this.#stat(node) };
    });
  }

  setData(path: string, data: Buffer, version: number): Promise<Stat> {
    return this.#call('setData', path, () => this.#setData(path, data, version));
  }

  /** The fake keeps /zookeeper/config as any node (a standalone server without one: NO_NODE). */
  getConfig(watcher?: Watcher): Promise<{ data: Buffer; stat: Stat }> {
    return this.getData('/zookeeper/config', watcher);
  }

  /** A fake server without dynamic reconfiguration. */
  reconfig(): Promise<{ data: Buffer; stat: Stat }> {
    return this.#call('reconfig', '/zookeeper/config', () => {
      throw err(ZooKeeperErrorCode.RECONFIG_DISABLED, '/zookeeper/config');
    });
  }

  getChildren(path: string, watcher?: Watcher): Promise<{ children: string[]; stat: Stat }> {
    return this.#call('getChildren', path, () => {
      const node = this.#nodes.get(path);
      if (!node) throw err(ZooKeeperErrorCode.NO_NODE, path);
      if (watcher) this.#watch(this.#childWatches, path, watcher);
      return { children: [...node.children], stat: this.#stat(node) };
    });
  }

  getAcl(path: string): Promise<{ acl: Acl[]; stat: Stat }> {
    return this.#call('getAcl', path, () => {
      const node = this.#nodes.get(path);
      if (!node) throw err(ZooKeeperErrorCode.NO_NODE, path);
      return { acl: [...node.acl], stat: this.#stat(node) };
    });
  }

  setAcl(path: string, acl: readonly Acl[], version: number): Promise<Stat> {
    return this.#call('setAcl', path, () => {
      const node = this.#nodes.get(path);
      if (!node) throw err(ZooKeeperErrorCode.NO_NODE, path);
      if (version !== -1 && version !== node.aversion) {
        throw err(ZooKeeperErrorCode.BAD_VERSION, path);
      }
      node.acl = [...acl];
      node.aversion++;
      return this.#stat(node);
    });
  }

  sync(path: string): Promise<void> {
    return this.#call('sync', path, () => undefined);
  }

  // getEphemerals and getAllChildrenNumber are proven on the real server
  // (test/integration/extended-requests).
  getEphemerals(): Promise<string[]> {
    return Promise.reject(new Error('FakeZooKeeper has no getEphemerals'));
  }

  getAllChildrenNumber(): Promise<number> {
    return Promise.reject(new Error('FakeZooKeeper has no getAllChildrenNumber'));
  }

  // Persistent watches are proven on the real server (test/integration/persistent-watches).
  addWatch(): Promise<void> {
    return Promise.reject(new Error('FakeZooKeeper has no persistent watches'));
  }

  removeWatches(): Promise<void> {
    return Promise.reject(new Error('FakeZooKeeper has no persistent watches'));
  }

  listenPersistently(): () => boolean {
    throw new Error('FakeZooKeeper has no persistent watches');
  }

  multi(ops: readonly WireTransactionOp[]): Promise<WireTransactionResult[]> {
    return this.#call('multi', ops[0]?.path ?? '/', () => {
      const snapshot = this.#snapshot();
      const codes: number[] = ops.map(() => 0);
      const results: WireTransactionResult[] = [];
      this.#deferredEvents = [];
      for (const [i, op] of ops.entries()) {
        try {
          results.push(this.#applyOp(op));
        } catch (error) {
          this.#nodes = snapshot;
          this.#deferredEvents = undefined;
          codes[i] = (error as ZooKeeperError).zkCode ?? ZooKeeperErrorCode.SYSTEM_ERROR;
          for (let j = i + 1; j < ops.length; j++) {
            codes[j] = ZooKeeperErrorCode.RUNTIME_INCONSISTENCY;
          }
          throw TransactionFailedError.fromResults(codes, ops);
        }
      }
      const events = this.#deferredEvents;
      this.#deferredEvents = undefined;
      for (const fire of events) fire();
      return results;
    });
  }

  #applyOp(op: WireTransactionOp): WireTransactionResult {
    switch (op.type) {
      case 'create':
        return {
          type: 'create',
          path: this.#create(op.path, op.data, op.acl, op.mode, this.sessionId),
        };
      case 'delete': {
        const node = this.#nodes.get(op.path);
        if (!node) throw err(ZooKeeperErrorCode.NO_NODE, op.path);
        if (op.version !== -1 && op.version !== node.version) {
          throw err(ZooKeeperErrorCode.BAD_VERSION, op.path);
        }
        if (node.children.size > 0) throw err(ZooKeeperErrorCode.NOT_EMPTY, op.path);
        this.#remove(op.path);
        return { type: 'delete' };
      }
      case 'setData':
        return { type: 'setData', stat: this.#setData(op.path, op.data, op.version) };
      case 'check': {
        const node = this.#nodes.get(op.path);
        if (!node) throw err(ZooKeeperErrorCode.NO_NODE, op.path);
        if (op.version !== -1 && op.version !== node.version) {
          throw err(ZooKeeperErrorCode.BAD_VERSION, op.path);
        }
        return { type: 'check' };
      }
    }
  }

  async #call<T>(op: FakeOpName, path: string, apply: () => T): Promise<T> {
    this.calls.push({ op, path });
    // Reply asynchronously, as a server would.
    await Promise.resolve();
    return this.#apply(op, path, apply);
  }

  #apply<T>(op: FakeOpName, path: string, apply: () => T): T {
    const index = this.#injections.findIndex(
      (injection) => injection.op === op && (injection.path?.(path) ?? true),
    );
    const injection = index >= 0 ? this.#injections.splice(index, 1)[0] : undefined;
    if (injection?.when === 'before') {
      injection.then?.();
      throw injection.error();
    }
    const result = apply();
    if (injection?.when === 'after') {
      injection.then?.();
      throw injection.error();
    }
    return result;
  }

  #create(
    path: string,
    data: Buffer,
    acl: readonly Acl[],
    mode: CreateMode,
    owner: bigint | undefined,
  ): string {
    const { parent: parentPath, name } = parentAndName(path);
    const parent = this.#nodes.get(parentPath);
    if (!parent) throw err(ZooKeeperErrorCode.NO_NODE, path);
    if (parent.ephemeralOwner !== 0n) {
      throw err(ZooKeeperErrorCode.NO_CHILDREN_FOR_EPHEMERALS, path);
    }
    let actual = path;
    let actualName = name;
    if (mode.includes('SEQUENTIAL')) {
      actualName = `${name}${String(parent.cversion).padStart(10, '0')}`;
      actual = parentPath === '/' ? `/${actualName}` : `${parentPath}/${actualName}`;
    }
    if (this.#nodes.has(actual)) throw err(ZooKeeperErrorCode.NODE_EXISTS, actual);
    this.modes.set(actual, mode);
    const ephemeral = mode === 'EPHEMERAL' || mode === 'EPHEMERAL_SEQUENTIAL';
    const node = this.#newNode(Buffer.from(data), acl, ephemeral ? (owner ?? 0n) : 0n);
    this.#nodes.set(actual, node);
    parent.children.add(actualName);
    parent.cversion++;
    parent.pzxid = node.czxid;
    this.#fire(this.#dataWatches, actual, 'NODE_CREATED');
    this.#fire(this.#childWatches, parentPath, 'NODE_CHILDREN_CHANGED');
    return actual;
  }

  #setData(path: string, data: Buffer, version: number): Stat {
    const node = this.#nodes.get(path);
    if (!node) throw err(ZooKeeperErrorCode.NO_NODE, path);
    if (version !== -1 && version !== node.version) {
      throw err(ZooKeeperErrorCode.BAD_VERSION, path);
    }
    node.data = Buffer.from(data);
    node.version++;
    node.mzxid = this.#zxid++;
    node.mtime = Date.now();
    this.#fire(this.#dataWatches, path, 'NODE_DATA_CHANGED');
    return this.#stat(node);
  }

  #remove(path: string): void {
    const { parent: parentPath, name } = parentAndName(path);
    this.#nodes.delete(path);
    const parent = this.#nodes.get(parentPath);
    if (parent) {
      parent.children.delete(name);
      parent.cversion++;
    }
    this.#fire(this.#dataWatches, path, 'NODE_DELETED');
    this.#fire(this.#childWatches, path, 'NODE_DELETED');
    this.#fire(this.#childWatches, parentPath, 'NODE_CHILDREN_CHANGED');
  }

  #newNode(data: Buffer, acl: readonly Acl[], ephemeralOwner: bigint): FakeNode {
    const zxid = this.#zxid++;
    const now = Date.now();
    return {
      data,
      acl: [...acl],
      czxid: zxid,
      mzxid: zxid,
      pzxid: zxid,
      ctime: now,
      mtime: now,
      version: 0,
      cversion: 0,
      aversion: 0,
      ephemeralOwner,
      children: new Set(),
    };
  }

  #stat(node: FakeNode): Stat {
    return {
      czxid: node.czxid,
      mzxid: node.mzxid,
      pzxid: node.pzxid,
      ctime: node.ctime,
      mtime: node.mtime,
      version: node.version,
      cversion: node.cversion,
      aversion: node.aversion,
      ephemeralOwner: node.ephemeralOwner,
      dataLength: node.data.length,
      numChildren: node.children.size,
    };
  }

  #snapshot(): Map<string, FakeNode> {
    return new Map(
      [...this.#nodes].map(([path, node]) => [path, { ...node, children: new Set(node.children) }]),
    );
  }

  #watch(watches: Map<string, Watcher[]>, path: string, watcher: Watcher): void {
    const list = watches.get(path) ?? [];
    list.push(watcher);
    watches.set(path, list);
  }

  #fire(watches: Map<string, Watcher[]>, path: string, type: WatchedEvent['type']): void {
    if (this.#deferredEvents) {
      this.#deferredEvents.push(() => this.#fire(watches, path, type));
      return;
    }
    const list = watches.get(path);
    if (!list) return;
    watches.delete(path);
    for (const watcher of list) watcher({ type, path });
  }
}
