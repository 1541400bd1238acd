// A minimal ZooKeeper client of our own. The testing package cannot use @zkrecipes/framework
// (whose tests depend on this package) and only the framework's adapter may import
// node-zookeeper-client. A fault harness also wants an observer that shares no code with
// the client under test: no reconnects, no retries, every request with a hard deadline.
import type net from 'node:net';
import type { SessionCredentials, SessionOwner } from '../session-credentials.js';
import { timing } from '../timing.js';
import { handshake, parseConnectString, type HostPort } from './connect-handshake.js';
import {
  corkUntilNextMicrotask,
  decodeWatcherEvent,
  encodeCreate2,
  encodeDelete,
  encodeReconfig,
  encodeRequest,
  JuteReader,
  JuteWriter,
  readReplyHeader,
  type FrameDecoder,
} from '@zkrecipes/wire';
import { PendingReplies } from './pending-replies.js';
import { CreateMode, OpCode, Perms, Xid, ZooKeeperErrorCode } from './protocol.js';
import { RawZooKeeperError } from './raw-zookeeper-error.js';

/** Options of {@link RawZooKeeperSession.connect}. */
export interface RawZooKeeperSessionOptions {
  /** Requested session timeout; the server clamps it to its min/max. Default 10000. */
  sessionTimeoutMs?: number;
  /** Attach to this existing session instead of creating one (needs `password`). */
  sessionId?: bigint;
  /** The password of the session named by `sessionId`; required with it. */
  password?: Buffer;
  /** Deadline for TCP + handshake over all hosts, before scaling. Default 5000. */
  connectTimeoutMs?: number;
  /** Deadline for each request's reply, before scaling. Default 5000. */
  requestTimeoutMs?: number;
}

/** A watch event: what happened to the node, as ZooKeeper's EventType numbers it. */
export interface RawWatchEvent {
  /** 2 deleted or 3 data changed (a getData watch is only left on a node that exists). */
  readonly type: number;
  /** The watched node. */
  readonly path: string;
}

/** A data watch left by {@link RawZooKeeperSession.watchData}. */
export interface RawWatch {
  /**
   * Resolves with the event that fires the watch, as the event is read (the replies read
   * before it have resolved theirs by then); rejects with CONNECTION_LOSS when the connection
   * ends first.
   */
  readonly fired: Promise<RawWatchEvent>;
}

/** A data watch waiting for its event. */
interface DataWatcher {
  readonly fire: (event: RawWatchEvent) => void;
  readonly fail: (error: Error) => void;
}

/** EventType numbers that fire a node's data watches (NodeChildrenChanged, 4, does not). */
const DATA_WATCH_EVENTS = new Set([1, 2, 3]);

interface Opened {
  socket: net.Socket;
  decoder: FrameDecoder;
  host: HostPort;
  sessionId: bigint;
  password: Buffer;
  sessionTimeoutMs: number;
}

export class RawZooKeeperSession implements SessionOwner, AsyncDisposable {
  /** The session id the server granted (or the one attached to). */
  readonly sessionId: bigint;
  /** The session password; with `sessionId` it lets another connection take the session over. */
  readonly password: Buffer;
  /** The timeout the server granted. */
  readonly sessionTimeoutMs: number;
  /** The server this session is connected to. */
  readonly server: HostPort;
  /** Why the connection ended; undefined while open or after close()/destroy(). */
  closeReason: Error | undefined;
  #socket: net.Socket;
  #replies: PendingReplies;
  #nextXid = 1;
  /** Data watches the server holds, by path; each fires once. */
  #dataWatches = new Map<string, DataWatcher[]>();
  /** Data watches asked for by requests in flight, by xid: held once the reply says so. */
  #watchOnReply = new Map<number, { path: string; watcher: DataWatcher }>();
  #pingTimer: NodeJS.Timeout;
  #closed = false;
  /** close() is under way: the server hanging up afterwards is expected, not a failure. */
  #closing = false;

  private constructor(opened: Opened, requestTimeoutMs: number) {
    const { socket, decoder } = opened;
    this.#socket = socket;
    this.sessionId = opened.sessionId;
    this.password = opened.password;
    this.sessionTimeoutMs = opened.sessionTimeoutMs;
    this.server = opened.host;
    this.#replies = new PendingReplies(requestTimeoutMs);
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const frame of decoder.push(chunk)) this.#onFrame(frame);
      } catch (error) {
        this.#teardown(error as Error);
      }
    });
    socket.on('error', (error) => this.#teardown(error));
    socket.on('close', () => this.#teardown(new Error('connection closed by the server')));
    // Pings keep the session alive while idle: every third of the timeout, as the Java client.
    this.#pingTimer = setInterval(() => {
      // A lost ping needs no handling here: a dead connection shows up as 'close'.
      this.#request(OpCode.ping, new JuteWriter(), undefined).catch(() => undefined);
    }, opened.sessionTimeoutMs / 3);
    // An idle session must not keep a test process alive; pending requests do (their timers).
    this.#pingTimer.unref();
    socket.unref();
    socket.resume();
  }

  /** Opens a new session, or attaches to `sessionId`; tries the hosts in order. */
  static async connect(
    connectString: string,
    options: RawZooKeeperSessionOptions = {},
  ): Promise<RawZooKeeperSession> {
    const { sessionTimeoutMs = 10_000, sessionId = 0n, password = Buffer.alloc(16) } = options;
    const deadline = Date.now() + timing.ms(options.connectTimeoutMs ?? 5000);
    const opened = await handshake(
      parseConnectString(connectString),
      { sessionTimeoutMs, sessionId, password },
      deadline,
    );
    const session = new RawZooKeeperSession(opened, timing.ms(options.requestTimeoutMs ?? 5000));
    for (const frame of opened.extraFrames) session.#onFrame(frame);
    return session;
  }

  /** True once the connection has ended, for any reason. */
  get closed(): boolean {
    return this.#closed;
  }

  /** This session's id and password, e.g. for {@link killSession}. */
  sessionCredentials(): SessionCredentials {
    return { sessionId: this.sessionId, password: this.password };
  }

  /** Creates a node with an open ACL (world:anyone, ALL); resolves with the created path. */
  async create(
    path: string,
    data: Buffer | string = Buffer.alloc(0),
    options: { mode?: CreateMode } = {},
  ): Promise<string> {
    const body = encodeCreate2(
      path,
      typeof data === 'string' ? Buffer.from(data) : data,
      [{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }],
      CreateMode[options.mode ?? 'PERSISTENT'],
    );
    // The classic create: the same CreateRequest as create2's, answered with the path alone.
    const reply = await this.#request(OpCode.create, body, path);
    return reply.string() ?? path;
  }

  /** Whether the node exists (no watch is set). */
  async exists(path: string): Promise<boolean> {
    try {
      await this.#request(OpCode.exists, new JuteWriter().string(path).bool(false), path);
      return true;
    } catch (error) {
      if (error instanceof RawZooKeeperError && error.code === ZooKeeperErrorCode.NO_NODE) {
        return false;
      }
      throw error;
    }
  }

  /** The node's data. */
  async getData(path: string): Promise<Buffer> {
    const body = new JuteWriter().string(path).bool(false);
    return (await this.#request(OpCode.getData, body, path)).buffer() ?? Buffer.alloc(0);
  }

  /**
   * Leaves a data watch on `path` (a getData with its watch flag set), as a lock waiter does
   * on the node ahead of it: resolves once the server holds it, or undefined when the node
   * does not exist (the server then leaves no watch). The watch fires on the node's next
   * deletion or data change.
   */
  async watchData(path: string): Promise<RawWatch | undefined> {
    let watcher!: DataWatcher;
    const fired = new Promise<RawWatchEvent>((resolve, reject) => {
      watcher = { fire: resolve, fail: reject };
    });
    fired.catch(() => undefined); // a watch nobody waits for must not become unhandled
    const body = new JuteWriter().string(path).bool(true);
    try {
      await this.#request(OpCode.getData, body, path, watcher);
    } catch (error) {
      if (error instanceof RawZooKeeperError && error.code === ZooKeeperErrorCode.NO_NODE) {
        return undefined;
      }
      throw error;
    }
    return { fired };
  }

  /**
   * Sends credentials (an AuthPacket, e.g. `('digest', 'super:secret')`); resolves once the
   * server accepted them. A server that rejects them answers AUTH_FAILED and hangs up.
   */
  async addAuth(scheme: string, auth: string | Buffer): Promise<void> {
    const body = new JuteWriter()
      .int(0)
      .string(scheme)
      .buffer(typeof auth === 'string' ? Buffer.from(auth) : auth);
    await this.#request(OpCode.auth, body, undefined);
  }

  /**
   * ZooKeeper's reconfig (3.5+): `joining` lines (`server.<id>=...`), `leaving` ids, or the
   * whole `members` list, each comma-separated; resolves the new /zookeeper/config data.
   */
  async reconfig(request: {
    joining?: string;
    leaving?: string;
    members?: string;
    fromConfig?: bigint;
  }): Promise<string> {
    const body = encodeReconfig({
      joiningServers: request.joining,
      leavingServers: request.leaving,
      newMembers: request.members,
      curConfigId: request.fromConfig ?? -1n,
    });
    const reply = await this.#request(OpCode.reconfig, body, '/zookeeper/config');
    return (reply.buffer() ?? Buffer.alloc(0)).toString('utf8');
  }

  /** The node's children, unsorted as the server sends them. */
  async getChildren(path: string): Promise<string[]> {
    const body = new JuteWriter().string(path).bool(false);
    return (await this.#request(OpCode.getChildren, body, path)).strings();
  }

  /** Deletes the node; `version` -1 (the default) matches any version. */
  async delete(path: string, options: { version?: number } = {}): Promise<void> {
    await this.#request(OpCode.delete, encodeDelete(path, options.version ?? -1), path);
  }

  /** Round trip with the server (resolves on its ping reply). */
  async ping(): Promise<void> {
    await this.#request(OpCode.ping, new JuteWriter(), undefined);
  }

  /**
   * Ends the session on the server (closeSession: its ephemerals go at once) and waits for
   * the reply, bounded by the request timeout, then closes the socket. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closing = true;
    try {
      await this.#request(OpCode.closeSession, new JuteWriter(), undefined);
    } catch {
      // Timed out or the connection went first: either way we are done with it.
    }
    this.#teardown(undefined);
  }

  /** Drops the connection without closeSession; the session lives on until it expires. */
  destroy(): void {
    this.#closing = true;
    this.#teardown(undefined);
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #request(
    type: number,
    body: JuteWriter | Buffer,
    path: string | undefined,
    watcher?: DataWatcher,
  ): Promise<JuteReader> {
    const describe = (): string => `${opName(type)}${path === undefined ? '' : ` ${path}`}`;
    if (this.#closed) {
      const reason = this.closeReason?.message ?? 'session closed';
      return Promise.reject(
        new RawZooKeeperError(ZooKeeperErrorCode.CONNECTION_LOSS, `${describe()}: ${reason}`, {
          path,
        }),
      );
    }
    const xid = type === OpCode.ping ? Xid.ping : type === OpCode.auth ? Xid.auth : this.#nextXid++;
    const reply = this.#replies.expect(xid, describe, path);
    if (watcher !== undefined && path !== undefined) {
      this.#watchOnReply.set(xid, { path, watcher });
      // Given up on (its deadline passed): a late reply must not leave a watch nobody holds.
      reply.catch(() => this.#watchOnReply.delete(xid));
    }
    corkUntilNextMicrotask(this.#socket); // requests made together leave in one write
    this.#socket.write(
      encodeRequest(xid, type, body instanceof JuteWriter ? body.toBuffer() : body),
    );
    return reply;
  }

  #onFrame(frame: Buffer): void {
    const reader = new JuteReader(frame);
    const { xid, err } = readReplyHeader(reader);
    if (xid === Xid.notification) {
      this.#notify(decodeWatcherEvent(frame.subarray(reader.offset)));
      return;
    }
    // Held from this reply on: an event read after it fires it.
    const watch = this.#watchOnReply.get(xid);
    if (watch !== undefined) {
      this.#watchOnReply.delete(xid);
      if (err === 0) this.#holdWatch(watch.path, watch.watcher);
    }
    this.#replies.settle(xid, err, reader);
  }

  #holdWatch(path: string, watcher: DataWatcher): void {
    // Someone waits for the event: like a pending request, a held watch keeps Node alive.
    if (this.#dataWatches.size === 0) this.#socket.ref();
    const held = this.#dataWatches.get(path);
    if (held === undefined) this.#dataWatches.set(path, [watcher]);
    else held.push(watcher);
  }

  /** Fires the path's data watches (their waiters resume in microtasks, after the replies read before). */
  #notify(event: { type: number; path: string }): void {
    if (!DATA_WATCH_EVENTS.has(event.type)) return;
    const watchers = this.#dataWatches.get(event.path);
    if (watchers === undefined) return;
    this.#dataWatches.delete(event.path);
    if (this.#dataWatches.size === 0) this.#socket.unref();
    const fired: RawWatchEvent = { type: event.type, path: event.path };
    for (const watcher of watchers) watcher.fire(fired);
  }

  #teardown(reason: Error | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    this.closeReason = this.#closing ? undefined : reason;
    clearInterval(this.#pingTimer);
    this.#socket.destroy();
    this.#replies.failAll(reason?.message ?? 'session closed', reason);
    // The watches went with the connection: nothing will fire them. (A watch still waiting for
    // its reply was never handed out: its watchData call fails with the request.)
    const lost = new RawZooKeeperError(
      ZooKeeperErrorCode.CONNECTION_LOSS,
      `watch: ${reason?.message ?? 'session closed'}`,
      { cause: reason },
    );
    const watchers = [...this.#dataWatches.values()].flat();
    this.#dataWatches.clear();
    this.#watchOnReply.clear();
    for (const watcher of watchers) watcher.fail(lost);
  }
}

function opName(type: number): string {
  const entry = Object.entries(OpCode).find(([, code]) => code === type);
  return entry?.[0] ?? `op ${type}`;
}
