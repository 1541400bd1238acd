/**
 * The only module that loads node-zookeeper-client (nzc). It turns one nzc client into a typed,
 * promise-returning `NzcHandle` and closes the library's sharp edges that can be closed from
 * here (docs/architecture.md, "The node-zookeeper-client facade"); the rest (heartbeat,
 * watchdog, parking, new sessions) is the connection's job, which talks to nzc only through
 * this handle.
 *
 * Everything it changes in nzc is changed on its own client instances (own properties of their
 * connection and watcher managers), never on nzc's modules or prototypes: another user of nzc
 * in the same process gets nzc as it is. nzc is loaded with a plain import of the package, so a
 * bundler can follow it.
 */
import { performance } from 'node:perf_hooks';
import { Buffer } from 'node:buffer';
import loadedNzc from 'node-zookeeper-client';
import {
  AddWatchMode as ADD_WATCH_MODE,
  decodeCreate,
  decodeCreate2,
  decodeGetAcl,
  decodeGetChildren2,
  decodeGetData,
  decodeInt,
  decodeMulti,
  decodeMultiRead,
  decodeStat as statFromBytes,
  decodeStrings,
  encodeCreate2,
  encodeDelete,
  encodeMulti,
  encodeMultiRead,
  encodePath,
  encodeReconfig,
  encodePathWatch,
  encodeSetAcl,
  encodeSetData,
  CreateFlag,
  corkUntilNextMicrotask,
  ZooKeeperErrorCode,
  OpCode,
  WatcherType,
  type ReconfigRequest,
  type WatcherEvent,
} from '@zkrecipes/wire';
import { errorFromCode } from '../errors/error-from-code.js';
import type { ZooKeeperError } from '../errors/zookeeper-error.js';
import type {
  NzcClient,
  NzcClientOptions,
  NzcModule,
  NzcRequestError,
  NzcState,
  NzcWatcherEvent,
  NzcWatcher,
} from './nzc-types.js';
import { missingFeature } from './missing-feature.js';
import { toWireResults } from './multi-results.js';
import {
  addWatchRequest,
  rawRequest,
  removeWatchesRequest,
  withChroot,
  withoutChroot,
  type NzcRawRequest,
} from './nzc-raw-request.js';
import { NzcReplyTap } from './nzc-reply-tap.js';
import type { ConnectionAttempts } from './connection-attempts.js';
import { tapConnectionAttempts } from './nzc-attempt-tap.js';
import { useTlsSockets } from './nzc-tls-socket.js';
import type { TlsSource } from '../tls/tls-options.js';
import { assertSupportedNzc, nzcErrorCodes } from './nzc-internals.js';
import { tapSaslHandshake } from './nzc-sasl-tap.js';
import type { SaslMechanism } from '../sasl/sasl-mechanism.js';
import { AuthFailedError } from '../errors/zookeeper-error-classes.js';
import { readHandshakeReply, sendReadOnlyHandshakes } from './nzc-read-only.js';
import type { ServerAddress } from '../paths/connect-string.js';
import { CONFIG_NODE } from '../paths/ensemble-config.js';
import type {
  Acl,
  CreateMode,
  PersistentWatchMode,
  Stat,
  WatchEventType,
  WireTransactionOp,
  WireTransactionResult,
} from './zookeeper-types.js';
import { TransactionFailedError } from '../errors/transaction-failed-error.js';

// The op codes under the names this module's requests were written with.
const {
  create: OP_CREATE,
  create2: OP_CREATE2,
  createContainer: OP_CREATE_CONTAINER,
  createTTL: OP_CREATE_TTL,
  delete: OP_DELETE,
  exists: OP_EXISTS,
  getACL: OP_GET_ACL,
  getChildren2: OP_GET_CHILDREN2,
  getData: OP_GET_DATA,
  getAllChildrenNumber: OP_GET_ALL_CHILDREN_NUMBER,
  getEphemerals: OP_GET_EPHEMERALS,
  multi: OP_MULTI,
  multiRead: OP_MULTI_READ,
  reconfig: OP_RECONFIG,
  setACL: OP_SET_ACL,
  setData: OP_SET_DATA,
  sync: OP_SYNC,
} = OpCode;
const NO_NODE: number = ZooKeeperErrorCode.NO_NODE;
const REMOVE_WATCHES_ANY = WatcherType.ANY;

let nzc: NzcModule | undefined;
let nzcCodes: ReadonlySet<number> = new Set();

/**
 * Checks, once, that the loaded nzc has every internal this module uses (nzc-internals.ts);
 * throws an IllegalStateError naming what is missing otherwise. Called as a client is created.
 */
export function assertNzcSupported(): void {
  supportedNzc();
}

function supportedNzc(): NzcModule {
  if (nzc === undefined) {
    assertSupportedNzc(loadedNzc);
    nzcCodes = nzcErrorCodes(loadedNzc);
    nzc = loadedNzc;
  }
  return nzc;
}

/** nzc takes the CreateRequest flags as they go on the wire. */
const NZC_MODE: Record<CreateMode, number> = CreateFlag;

/** The request a create in `mode` needs: nzc's own create knows the first four modes only. */
function createOpCode(mode: CreateMode): number {
  if (mode === 'CONTAINER') return OP_CREATE_CONTAINER;
  if (mode === 'PERSISTENT_WITH_TTL' || mode === 'PERSISTENT_SEQUENTIAL_WITH_TTL') {
    return OP_CREATE_TTL;
  }
  return OP_CREATE2;
}

const NZC_EVENT: Record<number, WatchEventType> = {
  1: 'NODE_CREATED',
  2: 'NODE_DELETED',
  3: 'NODE_DATA_CHANGED',
  4: 'NODE_CHILDREN_CHANGED',
};

/** What the handle reports about its connection, in nzc's terms. */
export type NzcHandleEvent =
  'connected' | 'connectedReadOnly' | 'disconnected' | 'expired' | 'authFailed';

export interface NzcHandleOptions {
  connectString: string;
  /** The servers, parsed by us: nzc's own parser splits IPv6 addresses at every colon. */
  servers: readonly ServerAddress[];
  sessionTimeoutMs: number;
  /** Upper bound of nzc's random pause after every server was tried once. */
  spinDelayMs: number;
  authInfo: readonly { scheme: string; auth: Buffer }[];
  /**
   * SASL to run on every new connection before nzc sees it as up (see nzc-sasl-tap.ts);
   * `describe` names it in errors, e.g. `DIGEST-MD5 as 'bob'`.
   */
  sasl?: { readonly mechanism: SaslMechanism; readonly describe: string } | undefined;
  /** 'authFailed' comes with `authFailure` set when this handle knows why. */
  onEvent: (event: NzcHandleEvent) => void;
  /** Called for every reply (and event) from the server: proof the connection is alive. */
  onTraffic: () => void;
  /**
   * Called with every watch notification (chroot removed), before nzc hands it to its one-shot
   * watchers: persistent watches are dispatched from here. Must not throw.
   */
  onNotification: (event: NzcWatcherEvent) => void;
  /** Hears what each connection attempt went through (see ConnectionAttempts). */
  attempts: ConnectionAttempts;
  /** Each attempt's TLS options: the connection is TLS (nzc-tls-socket.ts). Default: plain TCP. */
  tls?: TlsSource | undefined;
  /** Accept a read-only server (nzc-read-only.ts). Default false: nzc's own handshake. */
  canBeReadOnly?: boolean | undefined;
  /**
   * Settles a request's promise (called inside nzc's socket handler as each reply is read):
   * now, or behind the notifications read before it (see EventDelivery).
   */
  inOrder: (settle: () => void) => void;
}

/**
 * A watch for a read: nzc's watcher, and `set`, called as the successful reply is read (where
 * nzc registers the watcher), before any notification read after it is handled.
 */
export interface NzcWatch {
  readonly watcher: NzcWatcher;
  readonly set: () => void;
}

/** One read of a multiRead: the node, or the typed error of that read alone. */
export type MultiReadOutcome = { data: Buffer; stat: Stat } | ZooKeeperError;

/**
 * The typed error for a request's failure. nzc's own Exception (a local failure) is kept as
 * the cause; the server's code, from the reply tap, says all there is in the message already.
 */
function wireError(error: NzcRequestError, path: string | undefined): ZooKeeperError {
  return errorFromCode(error.code, { path, cause: error instanceof Error ? error : undefined });
}

/**
 * One nzc client = one connection attempt chain bound to one session. Never retries by itself
 * (nzc's `retries` is 0: it re-sends writes the server already applied).
 */
export class NzcHandle {
  readonly #client: NzcClient;
  #closed = false;

  constructor(options: NzcHandleOptions, resume?: { sessionId: bigint; password: Buffer }) {
    const nzcOptions: NzcClientOptions = {
      sessionTimeout: options.sessionTimeoutMs,
      spinDelay: options.spinDelayMs,
      retries: 0,
    };
    if (resume) {
      const id = Buffer.alloc(8);
      id.writeBigInt64BE(resume.sessionId);
      nzcOptions.sessionId = id;
      nzcOptions.sessionPassword = resume.password;
    }
    this.#client = supportedNzc().createClient(options.connectString, nzcOptions);
    // Shuffled as nzc does, so clients of one ensemble spread over its servers.
    const manager = this.#client.connectionManager;
    manager.servers = shuffled(options.servers);
    // Installed before the reply tap, so it sees whole frames.
    if (options.sasl) {
      tapSaslHandshake(manager, {
        ...options.sasl,
        isOver: () => this.#closed,
        onFailure: (error) => this.#failAuthentication(error, options.onEvent),
      });
    }
    // The tap answers the raw requests' replies and decodes the notifications, which go on to
    // nzc's watcher manager (below) with the chroot removed, as nzc's decoder removes it.
    new NzcReplyTap(manager, {
      notify: (event: WatcherEvent): void =>
        manager.watcherManager.emit({
          type: event.type,
          state: event.state,
          path: withoutChroot(manager.chrootPath, event.path),
        }),
      nzcKnowsCode: (code) => nzcCodes.has(code),
      onSaslRequired: () =>
        this.#failAuthentication(
          new AuthFailedError({
            detail:
              'the server requires SASL authentication and closed the session (SESSION_CLOSED_REQUIRE_SASL_AUTH); give the client the sasl option',
            cause: errorFromCode(ZooKeeperErrorCode.SESSION_CLOSED_REQUIRE_SASL_AUTH),
          }),
          options.onEvent,
        ),
      handshake: options.canBeReadOnly === true ? (payload) => this.#handshake(payload) : undefined,
    });
    if (options.canBeReadOnly === true) {
      sendReadOnlyHandshakes(manager, { seenReadWrite: () => this.#seenReadWrite });
    }
    // Credentials registered before connect() are sent right after every handshake, ahead of
    // anything the connection releases once it sees 'connected'.
    for (const { scheme, auth } of options.authInfo) this.#addCredential(scheme, auth);
    this.#client.on('state', (state: NzcState) => {
      if (this.#closed) return;
      let event = HANDLE_EVENT[state.name];
      if (event === 'disconnected') this.#readOnly = false;
      // A session handshake answered: the server heard the session when the request went out.
      if (event === 'connected') {
        this.#heard(this.#connectSentAtMs);
        if (this.#readOnly) {
          // nzc does not read the flag: its state says what the server said.
          manager.state = NZC_STATE.CONNECTED_READ_ONLY;
          event = 'connectedReadOnly';
        } else {
          this.#seenReadWrite = true;
        }
      }
      if (event) options.onEvent(event);
    });
    this.#onTraffic = options.onTraffic;
    this.#inOrder = options.inOrder;
    this.#options = options;
    // nzc writes the handshake as the socket connects; its time is when the server can first
    // have heard this connection. A socket nzc opens after close() (it opens sockets a tick or
    // a spin delay after connect()) is destroyed as it connects, its connect timer cleared.
    const onSocketConnected = manager.onSocketConnected.bind(manager);
    manager.onSocketConnected = (): void => {
      if (this.#closed) {
        clearTimeout(manager.connectTimeoutHandler);
        manager.socket?.destroy();
        return;
      }
      this.#connectSentAtMs = performance.now();
      onSocketConnected();
    };
    // Also notes which server each attempt goes to: what requests report as their server.
    tapConnectionAttempts(manager, options.attempts, {
      isOver: () => this.#closed,
      onServer: (server) => (this.#server = server),
      tls: options.tls !== undefined,
    });
    if (options.tls) {
      const { attempts } = options;
      useTlsSockets(manager, options.tls, {
        tcpConnected: () => {
          if (!this.#closed) attempts.tlsStarted();
        },
        optionsFailed: (error) => {
          if (!this.#closed) attempts.failing(error);
        },
      });
    }
    // nzc only knows one-shot watchers; every notification passes through this one method.
    const watchers = this.#client.connectionManager.watcherManager;
    const emitToOneShotWatchers = watchers.emit.bind(watchers);
    watchers.emit = (event: NzcWatcherEvent): void => {
      if (!this.#closed) options.onNotification(event);
      emitToOneShotWatchers(event);
    };
  }

  readonly #options: NzcHandleOptions;
  readonly #onTraffic: () => void;
  readonly #inOrder: (settle: () => void) => void;
  #server: ServerAddress | undefined;
  #authFailure: AuthFailedError | undefined;

  /** Why the server (or the SASL exchange) refused this client, once it did: terminal. */
  get authFailure(): AuthFailedError | undefined {
    return this.#authFailure;
  }

  /**
   * A request's error: the handle's terminal AuthFailedError for the reply that said the
   * server requires SASL (so every rejection from then on is the same error), else wireError.
   */
  #wireError(error: NzcRequestError, path: string | undefined): ZooKeeperError {
    if (error.code === ZooKeeperErrorCode.SESSION_CLOSED_REQUIRE_SASL_AUTH && this.#authFailure) {
      return this.#authFailure;
    }
    return wireError(error, path);
  }

  #failAuthentication(error: AuthFailedError, onEvent: (event: NzcHandleEvent) => void): void {
    if (this.#closed || this.#authFailure) return;
    this.#authFailure = error;
    onEvent('authFailed');
  }
  #connectSentAtMs = 0;
  #lastHeardMs: number | undefined;
  /** The current connection's server said it is read-only (only with canBeReadOnly). */
  #readOnly = false;
  #seenReadWrite = false;

  /** True while connected to a read-only server: writes would be refused (NOT_READ_ONLY). */
  get readOnly(): boolean {
    return this.#readOnly;
  }

  /** Reads a handshake reply (canBeReadOnly only); false ends the connection. */
  #handshake(payload: Buffer): boolean {
    const reply = readHandshakeReply(payload);
    this.#readOnly = reply?.readOnly === true && reply.sessionTimeoutMs > 0;
    if (reply !== undefined) return true;
    this.#options.attempts.failing(
      new Error(
        'the server answered the handshake without a session: a read-only server without localSessionsEnabled=true',
      ),
    );
    return false;
  }

  /**
   * Leaves the current connection for `server` (a read-write server found while read-only):
   * nzc's next attempt goes there.
   */
  moveTo(server: ServerAddress): void {
    const manager = this.#client.connectionManager;
    const index = manager.servers.findIndex(
      (s) => s.host === server.host && s.port === server.port,
    );
    if (index >= 0) {
      manager.nextServerIndex = index;
      manager.serverAttempts = 0;
    }
    this.dropConnection();
  }

  /**
   * The send time (`performance.now()`) of the newest request the server answered, the
   * handshake included: the server had heard the session by then, so it cannot expire it
   * before this plus the negotiated timeout. Undefined until the first answer.
   */
  get lastHeardMs(): number | undefined {
    return this.#lastHeardMs;
  }

  #heard(sentAtMs: number): void {
    this.#onTraffic();
    if (this.#lastHeardMs === undefined || sentAtMs > this.#lastHeardMs) {
      this.#lastHeardMs = sentAtMs;
    }
  }

  /** Called as a request is handed to nzc: batches the tick's writes, returns the send time. */
  #send(): number {
    this.#batchWrites();
    return performance.now();
  }

  /**
   * Every reply callback: an answer from the server (a success or a server error) proves the
   * server heard the session when the request was sent. CONNECTION_LOSS, SESSION_EXPIRED and
   * AUTH_FAILED are also what nzc itself fails pending requests with when a socket closes, so
   * they prove nothing.
   */
  #replied(sentAtMs: number, error: NzcRequestError | null | undefined): void {
    if (this.#closed) return;
    if (error && LOCAL_FAILURE_CODES.has(error.code)) return;
    this.#heard(sentAtMs);
  }

  connect(): void {
    this.#client.connect();
  }

  get sessionId(): bigint {
    return this.#client.getSessionId().readBigInt64BE(0);
  }

  get sessionPassword(): Buffer {
    return this.#client.getSessionPassword();
  }

  get negotiatedSessionTimeoutMs(): number {
    return this.#client.getSessionTimeout();
  }

  /** The server of the current connection (attempt), one of `options.servers`. */
  get server(): ServerAddress | undefined {
    return this.#server;
  }

  /**
   * Identity of the current socket. A new object means a new connection attempt; the
   * connection's watchdog uses it to time a handshake that never completes.
   */
  get socket(): object | undefined {
    return this.#client.connectionManager.socket;
  }

  /**
   * nzc writes every request with its own socket.write (one syscall each): the requests made
   * in one stretch of synchronous code go out in one write instead.
   */
  #batchWrites(): void {
    const socket = this.#client.connectionManager.socket;
    if (socket) corkUntilNextMicrotask(socket);
  }

  /**
   * Replaces the servers the next connection attempts go to (shuffled, as at creation); the
   * current connection stays. nzc's round starts over on the new list.
   */
  setServers(servers: readonly ServerAddress[]): void {
    const manager = this.#client.connectionManager;
    manager.servers = shuffled(servers);
    manager.nextServerIndex = 0;
    manager.serverAttempts = 0;
  }

  /** Drops the TCP connection; nzc then fails in-flight requests and tries the next server. */
  dropConnection(): void {
    this.#client.connectionManager.socket?.destroy();
  }

  /**
   * Closes the session on the server (its ephemerals vanish at once), waiting up to `waitMs`
   * for the server to hang up, then stops the handle for good.
   */
  async closeSession(waitMs: number): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const manager = this.#client.connectionManager;
    if (manager.state !== NZC_STATE.CONNECTED && manager.state !== NZC_STATE.CONNECTED_READ_ONLY) {
      // Nothing to say goodbye on: nzc's close() would write its CLOSE_SESSION to a socket that
      // is still handshaking or not there at all (a TypeError inside nzc). Put nzc in CLOSING,
      // where a closing socket ends it instead of starting the next connection attempt.
      manager.state = NZC_STATE.CLOSING;
      clearTimeout(manager.connectTimeoutHandler);
      this.#client.removeAllListeners();
      this.dropConnection();
      return;
    }
    if (waitMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        this.#client.on('state', (state) => {
          if (state.name !== 'DISCONNECTED') return;
          clearTimeout(timer);
          resolve();
        });
        this.#client.close();
      });
    } else {
      this.#client.close();
    }
    this.#client.removeAllListeners();
    this.dropConnection();
  }

  /** Stops this handle for good without waiting for the server: the session is given up. */
  abandon(): void {
    void this.closeSession(0);
  }

  create(
    path: string,
    data: Buffer,
    acl: readonly Acl[],
    mode: CreateMode,
    ttlMs?: number,
  ): Promise<string> {
    if (createOpCode(mode) !== OP_CREATE2) {
      return this.create2(path, data, acl, mode, ttlMs).then((created) => created.path);
    }
    // The classic create (op 1), as nzc's `create` sends it: the same CreateRequest, answered
    // with the path alone.
    const chroot = this.#client.connectionManager.chrootPath;
    const body = encodeCreate2(withChroot(chroot, path), data, acl, NZC_MODE[mode]);
    return this.#sendDecoded(rawRequest(OP_CREATE, body), path, (reply) =>
      withoutChroot(chroot, decodeCreate(reply)),
    );
  }

  /**
   * Creates a node with create2 (ZooKeeper 3.5+), createContainer or createTTL (by `mode`):
   * resolves the created path (chroot removed, as nzc's create does) and the new node's Stat.
   * A server without the mode's feature answers UNIMPLEMENTED; the error then names it.
   */
  create2(
    path: string,
    data: Buffer,
    acl: readonly Acl[],
    mode: CreateMode,
    ttlMs?: number,
  ): Promise<{ path: string; stat: Stat }> {
    const chroot = this.#client.connectionManager.chrootPath;
    const opCode = createOpCode(mode);
    const body = encodeCreate2(
      withChroot(chroot, path),
      data,
      acl,
      NZC_MODE[mode],
      opCode === OP_CREATE_TTL ? ttlMs : undefined,
    );
    // Decoded as the reply is read (no copy): the stat is turned into numbers at once.
    return this.#sendDecoded(rawRequest(opCode, body), path, (reply) => {
      const created = decodeCreate2(reply);
      return { path: withoutChroot(chroot, created.path), stat: statFromBytes(created.stat) };
    }).catch((error: unknown) => {
      throw missingFeature(error, mode);
    });
  }

  /**
   * Waits until the server this session is connected to has caught up with the leader as of
   * this request (ZooKeeper's sync, op 9), so reads sent after it see every write committed
   * before it.
   */
  sync(path: string): Promise<void> {
    const serverPath = withChroot(this.#client.connectionManager.chrootPath, path);
    return this.#sendTapped(rawRequest(OP_SYNC, encodePath(serverPath)), path).then(() => {});
  }

  /**
   * The paths of this session's ephemeral nodes that start with `prefix` (a string prefix,
   * not a path boundary; ZooKeeper 3.6+, op 103). Chroot applied to the prefix, removed from
   * the answers, and answers outside the chroot left out.
   */
  getEphemerals(prefix: string): Promise<string[]> {
    const chroot = this.#client.connectionManager.chrootPath;
    const request = rawRequest(OP_GET_EPHEMERALS, encodePath(withChroot(chroot, prefix)));
    return this.#sendTapped(request, prefix).then(
      (reply) =>
        decodeStrings(reply)
          .filter((found) => !chroot || found === chroot || found.startsWith(`${chroot}/`))
          .map((found) => withoutChroot(chroot, found)),
      (error: unknown) => {
        throw missingFeature(error, 'getEphemerals');
      },
    );
  }

  /** How many nodes are below `path`, at any depth (ZooKeeper 3.6+, op 104). */
  getAllChildrenNumber(path: string): Promise<number> {
    const serverPath = withChroot(this.#client.connectionManager.chrootPath, path);
    const request = rawRequest(OP_GET_ALL_CHILDREN_NUMBER, encodePath(serverPath));
    return this.#sendTapped(request, path).then(decodeInt, (error: unknown) => {
      throw missingFeature(error, 'getAllChildrenNumber');
    });
  }

  /** Encoded by @zkrecipes/wire (nzc's generic jute encoder costs more than the rest of it). */
  delete(path: string, version: number): Promise<void> {
    const serverPath = withChroot(this.#client.connectionManager.chrootPath, path);
    return this.#sendRaw(rawRequest(OP_DELETE, encodeDelete(serverPath, version)), path);
  }

  /*
   * exists, getData, getChildren and setData are sent as raw requests and their replies decoded
   * once by @zkrecipes/wire as the tap takes them off the stream: nzc's generic jute decoder
   * plus a second pass over its Stat cost more CPU than the rest of a read's decoding. A watched
   * read registers its watcher with nzc's watcher manager where nzc's own read would (as the
   * reply is read, by nzc's rules), so SetWatches on reconnect and event dispatch are nzc's.
   */

  /** The credentials given to nzc, which re-sends them after each handshake of this handle. */
  readonly #credentials: { scheme: string; auth: Buffer }[] = [];

  #addCredential(scheme: string, auth: Buffer): void {
    if (this.#credentials.some((c) => c.scheme === scheme && c.auth.equals(auth))) return;
    this.#credentials.push({ scheme, auth });
    this.#client.addAuthInfo(scheme, auth);
  }

  /**
   * Sends credentials on this connection (nzc re-sends them on its reconnects; once is enough)
   * and resolves once the server accepted them: with the reply to a read sent behind them, as
   * the server answers in order and a refusal comes first (AUTH_FAILED, which ends the handle).
   */
  async addAuth(scheme: string, auth: Buffer): Promise<void> {
    this.#addCredential(scheme, auth);
    await this.exists('/');
  }

  exists(path: string, watch?: NzcWatch): Promise<Stat | null> {
    const manager = this.#client.connectionManager;
    const body = encodePathWatch(withChroot(manager.chrootPath, path), watch !== undefined);
    return this.#sendDecoded<Stat | null>(
      rawRequest(OP_EXISTS, body),
      path,
      statFromBytes,
      (error) => {
        if (error && error.code !== NO_NODE) return undefined;
        if (watch) {
          // nzc's rule: a data watch on a node that exists, an existence watch on one that does not.
          if (error) manager.registerExistenceWatcher(path, watch.watcher);
          else manager.registerDataWatcher(path, watch.watcher);
          watch.set();
        }
        return error ? { value: null } : undefined;
      },
    );
  }

  getData(path: string, watch?: NzcWatch): Promise<{ data: Buffer; stat: Stat }> {
    const manager = this.#client.connectionManager;
    const body = encodePathWatch(withChroot(manager.chrootPath, path), watch !== undefined);
    return this.#sendDecoded(rawRequest(OP_GET_DATA, body), path, decodeGetData, (error) => {
      if (watch && !error) {
        manager.registerDataWatcher(path, watch.watcher);
        watch.set();
      }
      return undefined;
    });
  }

  /**
   * Reads /zookeeper/config as the server names it: the connect string's chroot is not applied
   * (ZooKeeper's own getConfig does the same). The watch is registered under that path, which
   * is also the path its notification carries.
   */
  getConfig(watch?: NzcWatch): Promise<{ data: Buffer; stat: Stat }> {
    const manager = this.#client.connectionManager;
    const body = encodePathWatch(CONFIG_NODE, watch !== undefined);
    return this.#sendDecoded(rawRequest(OP_GET_DATA, body), CONFIG_NODE, decodeGetData, (error) => {
      if (watch && !error) {
        manager.registerDataWatcher(CONFIG_NODE, watch.watcher);
        watch.set();
      }
      return undefined;
    });
  }

  /**
   * ZooKeeper's reconfig (op 16, 3.5+): resolves the new configuration's data and Stat as
   * /zookeeper/config then holds them.
   */
  reconfig(request: ReconfigRequest): Promise<{ data: Buffer; stat: Stat }> {
    const body = encodeReconfig(request);
    return this.#sendDecoded(rawRequest(OP_RECONFIG, body), CONFIG_NODE, decodeGetData);
  }

  setData(path: string, data: Buffer, version: number): Promise<Stat> {
    const serverPath = withChroot(this.#client.connectionManager.chrootPath, path);
    const body = encodeSetData(serverPath, data, version);
    return this.#sendDecoded(rawRequest(OP_SET_DATA, body), path, statFromBytes);
  }

  getChildren(path: string, watch?: NzcWatch): Promise<{ children: string[]; stat: Stat }> {
    const manager = this.#client.connectionManager;
    const body = encodePathWatch(withChroot(manager.chrootPath, path), watch !== undefined);
    return this.#sendDecoded(
      rawRequest(OP_GET_CHILDREN2, body),
      path,
      decodeGetChildren2,
      (error) => {
        if (watch && !error) {
          manager.registerChildWatcher(path, watch.watcher);
          watch.set();
        }
        return undefined;
      },
    );
  }

  /**
   * Sends a raw request and resolves its reply body decoded by `decode` (inside the socket
   * handler, as the tap hands it over; a decode that throws rejects). `onReply` runs as the reply
   * is read, before anything read after it, with the server's error or null, and may answer an
   * error with a value instead (`{ value }`); it is not called for nzc's own local failures.
   */
  #sendDecoded<T>(
    request: NzcRawRequest,
    path: string | undefined,
    decode: (body: Buffer) => T,
    onReply?: (error: NzcRequestError | null) => { value: T } | undefined,
  ): Promise<T> {
    // The promise is made here, not in a helper: every frame between a recipe's call and the
    // socket is one more on each request's stack (docs/benchmarks.md, request frames).
    return new Promise<T>((resolve, reject) => {
      const sentAtMs = this.#send();
      this.#client.connectionManager.queue(request, (error, body) => {
        this.#replied(sentAtMs, error);
        let value: T;
        try {
          value = this.#answer(error, body, path, decode, onReply);
        } catch (failure) {
          this.#inOrder(() =>
            reject(failure instanceof Error ? failure : new Error(String(failure))),
          );
          return;
        }
        this.#inOrder(() => resolve(value));
      });
    });
  }

  /** A reply's value, decoded from `body`; throws what the request rejects with. */
  #answer<T>(
    error: NzcRequestError | null,
    body: unknown,
    path: string | undefined,
    decode: (body: Buffer) => T,
    onReply: ((error: NzcRequestError | null) => { value: T } | undefined) | undefined,
  ): T {
    const local = error !== null && LOCAL_FAILURE_CODES.has(error.code);
    const instead = local ? undefined : onReply?.(error);
    if (instead) return instead.value;
    if (error) throw this.#wireError(error, path);
    if (!(body instanceof Buffer)) throw new Error('a decoded read was answered without a body');
    return decode(body);
  }

  /** getACL and setACL as raw requests too, so nzc's ACL and Id classes are not needed. */
  getAcl(path: string): Promise<{ acl: Acl[]; stat: Stat }> {
    const serverPath = withChroot(this.#client.connectionManager.chrootPath, path);
    return this.#sendDecoded(rawRequest(OP_GET_ACL, encodePath(serverPath)), path, decodeGetAcl);
  }

  setAcl(path: string, acl: readonly Acl[], version: number): Promise<Stat> {
    const serverPath = withChroot(this.#client.connectionManager.chrootPath, path);
    const body = encodeSetAcl(serverPath, acl, version);
    return this.#sendDecoded(rawRequest(OP_SET_ACL, body), path, statFromBytes);
  }

  /** Adds a persistent watch (ZooKeeper 3.6+ `addWatch`); the server keeps it until removed. */
  addWatch(path: string, mode: PersistentWatchMode): Promise<void> {
    const serverPath = withChroot(this.#client.connectionManager.chrootPath, path);
    return this.#sendRaw(addWatchRequest(serverPath, ADD_WATCH_MODE[mode]), path);
  }

  /**
   * Removes every watch this connection holds on `path` (removeWatches, type Any): persistent
   * and one-shot alike, since the server keeps watches per connection, not per watcher.
   */
  removeWatches(path: string): Promise<void> {
    const serverPath = withChroot(this.#client.connectionManager.chrootPath, path);
    return this.#sendRaw(removeWatchesRequest(serverPath, REMOVE_WATCHES_ANY), path);
  }

  /**
   * Reads several nodes in one request (multiRead, ZooKeeper 3.6+), without watches. Each read
   * succeeds or fails on its own; the promise rejects only when the request as a whole fails.
   */
  multiRead(paths: readonly string[]): Promise<MultiReadOutcome[]> {
    const chroot = this.#client.connectionManager.chrootPath;
    const request = rawRequest(
      OP_MULTI_READ,
      encodeMultiRead(paths.map((path) => withChroot(chroot, path))),
    );
    return this.#sendTapped(request, paths[0]).then((body) =>
      decodeMultiRead(body, paths.length).map((result, i) =>
        result.ok
          ? { data: result.data, stat: statFromBytes(result.stat) }
          : errorFromCode(result.code, { path: paths[i] }),
      ),
    );
  }

  /** Sends `request` and resolves its reply body (a copy), taken off the stream before nzc. */
  #sendTapped(request: NzcRawRequest, path: string | undefined): Promise<Buffer> {
    return this.#sendDecoded(request, path, (bytes) => Buffer.from(bytes));
  }

  #sendRaw(request: NzcRawRequest, path: string | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const sentAtMs = this.#send();
      this.#client.connectionManager.queue(request, (error) => {
        this.#replied(sentAtMs, error);
        if (error) {
          const failure = this.#wireError(error, path);
          this.#inOrder(() => reject(failure));
        } else this.#inOrder(resolve);
      });
    });
  }

  /**
   * A multi, in our own encoding (multi-codec.ts) for every op kind: nzc's Transaction rewrites
   * version 0 to -1 (a conditional op made unconditional) and its jute encoding cost a quarter
   * of an idempotent queue's throughput (docs/benchmarks.md).
   */
  multi(ops: readonly WireTransactionOp[]): Promise<WireTransactionResult[]> {
    if (ops.length === 0) return Promise.resolve([]);
    return this.#multiWritten(ops);
  }

  /** A multi in our own encoding; container and TTL creates name themselves when refused. */
  #multiWritten(ops: readonly WireTransactionOp[]): Promise<WireTransactionResult[]> {
    const chroot = this.#client.connectionManager.chrootPath;
    const request = rawRequest(
      OP_MULTI,
      encodeMulti(ops, (path) => withChroot(chroot, path)),
    );
    const extended = ops.find((o) => o.type === 'create' && createOpCode(o.mode) !== OP_CREATE2);
    const feature = extended?.type === 'create' ? extended.mode : undefined;
    return this.#sendTapped(request, ops[0]?.path).then(
      (body) => {
        const outcome = toWireResults(decodeMulti(body), ops, (path) =>
          withoutChroot(chroot, path),
        );
        if (!('failed' in outcome)) return outcome.results;
        const failed = TransactionFailedError.fromResults(outcome.failed, ops);
        const op = ops[failed.failedOpIndex];
        if (failed.code !== 'UNIMPLEMENTED' || op?.type !== 'create') throw failed;
        throw missingFeature(errorFromCode(-6, { path: op.path, cause: failed }), op.mode);
      },
      (error: unknown) => {
        throw feature === undefined ? error : missingFeature(error, feature);
      },
    );
  }
}

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** nzc's connection states (ConnectionManager's STATES). */
const NZC_STATE = { CONNECTED: 2, CONNECTED_READ_ONLY: 3, CLOSING: -1 } as const;

/** Codes nzc fails pending requests with on its own when a socket closes. */
const LOCAL_FAILURE_CODES = new Set([-4, -112, -115]);

const HANDLE_EVENT: Record<string, NzcHandleEvent> = {
  SYNC_CONNECTED: 'connected',
  CONNECTED_READ_ONLY: 'connected',
  DISCONNECTED: 'disconnected',
  EXPIRED: 'expired',
  AUTH_FAILED: 'authFailed',
};

/** Maps nzc's event type numbers; undefined for anything else. */
export function watchEventTypeOf(type: number): WatchEventType | undefined {
  return NZC_EVENT[type];
}
