/**
 * The only module that loads node-zookeeper-client (nzc). It turns one nzc client into an
 * `NzcHandle` that sends the requests of zookeeper-requests.ts, and closes the library's sharp edges that can be closed from
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
import { corkUntilNextMicrotask, ZooKeeperErrorCode, type WatcherEvent } from '@zkrecipes/wire';
import { errorFromCode } from '../errors/error-from-code.js';
import type { ZooKeeperError } from '../errors/zookeeper-error.js';
import type {
  NzcClient,
  NzcClientOptions,
  NzcModule,
  NzcRequestError,
  NzcState,
  NzcWatcherEvent,
} from './nzc-types.js';
import { missingFeature } from './missing-feature.js';
import { withoutChroot } from './nzc-raw-request.js';
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
import type { WatchEventType } from './zookeeper-types.js';
import type { ZooKeeperRequest } from './zookeeper-requests.js';

/** How a request sent on a handle is settled: with its value, or rejected. */
export interface ReplySettler<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

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
    for (const { scheme, auth } of options.authInfo) this.addCredential(scheme, auth);
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

  /** The credentials given to nzc, which re-sends them after each handshake of this handle. */
  readonly #credentials: { scheme: string; auth: Buffer }[] = [];

  /**
   * Sends credentials on this connection; nzc re-sends them on its reconnects, once is enough.
   * The server answers in order: a request sent after them is answered after a refusal
   * (AUTH_FAILED, which ends the handle).
   */
  addCredential(scheme: string, auth: Buffer): void {
    if (this.#credentials.some((c) => c.scheme === scheme && c.auth.equals(auth))) return;
    this.#credentials.push({ scheme, auth });
    this.#client.addAuthInfo(scheme, auth);
  }

  /**
   * Hands `request` to nzc's packet queue now and settles `reply` with its answer, read by the
   * reply tap inside the socket handler (a decode that throws rejects). nzc's FIFO keeps it in
   * call order with every other request. The promise is the caller's: every frame between a
   * recipe's call and the socket is one more on each request's stack (docs/benchmarks.md,
   * request frames).
   */
  send<T>(request: ZooKeeperRequest<T>, reply: ReplySettler<T>): void {
    this.#batchWrites();
    const sentAtMs = performance.now();
    this.#client.connectionManager.queue(request.bytes, (error, body) => {
      this.#replied(sentAtMs, error);
      let value: T;
      try {
        value = this.#answer(request, error, body);
      } catch (failure) {
        this.#inOrder(() => reply.reject(failure));
        return;
      }
      this.#inOrder(() => reply.resolve(value));
    });
  }

  /** A reply's value; throws what the request rejects with. */
  #answer<T>(request: ZooKeeperRequest<T>, error: NzcRequestError | null, body: unknown): T {
    const local = error !== null && LOCAL_FAILURE_CODES.has(error.code);
    const instead = local ? undefined : request.onReply?.(error, this.#client.connectionManager);
    if (instead) return instead.value;
    if (error) {
      const failure = this.#wireError(error, request.path);
      throw request.feature === undefined ? failure : missingFeature(failure, request.feature);
    }
    if (!(body instanceof Buffer)) throw new Error('a request was answered without a body');
    return request.decode(body);
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
