import type { Observable } from 'rxjs';
import { validateTimeoutMs } from '../checks/validate-number.js';
import type { Logger } from '../logging/logger.js';
import { iterableObservable, type IterableObservable } from '../streams/iterable-observable.js';
import type { ZooKeeperConnection } from '../zk/zookeeper-connection.js';
import type { SessionCredentials } from '../zk/zookeeper-types.js';
import {
  ConnectionState,
  type ConnectionStateChange,
  type ErrorPolicy,
} from './connection-state.js';
import { ConnectionStateMachine } from './connection-state-machine.js';
import { ConnectionStream } from './connection-stream.js';
import { FirstConnection, type FirstConnectionWaitOptions } from './first-connection.js';
import { onAbort } from '../async/on-abort.js';

/** What {@link ConnectionStateManager} is made from; createFramework gives it. */
export interface ConnectionStateManagerOptions {
  /** The one connection whose events the states follow. */
  readonly connection: ZooKeeperConnection;
  /** LOST after SUSPENDED lasts this percent of the negotiated session timeout. */
  readonly sessionExpirationPercent: number;
  /** Which states recipes treat as "hold may be gone". */
  readonly errorPolicy: ErrorPolicy;
  /** How long the first connection is waited for by calls without a limit of their own. */
  readonly connectionTimeoutMs: number;
  /** Aborted when the client closes. */
  readonly closing: AbortSignal;
  /** True once `start()` was called. */
  readonly started: () => boolean;
  readonly logger: Logger;
  /** Background failures (a listener that throws): never unhandled rejections. */
  readonly report: (error: unknown, context: string) => void;
}

/**
 * What the client layer reads of the connection state: {@link ConnectionStateManager}'s
 * surface (the client's unit tests drive a stand-in).
 */
export interface ClientConnectionState {
  /** The current state; undefined before the first connection. */
  readonly state: ConnectionState | undefined;
  /** The states, replaying the current one to new subscribers. */
  readonly states: IterableObservable<ConnectionState>;
  /** Each change of state, with the session it concerns. */
  readonly changes: Observable<ConnectionStateChange>;
  /** True while a connection is up and proven (requests go out at once). */
  readonly isConnected: boolean;
  /** The current session's id; undefined before the first connection. */
  readonly sessionId: bigint | undefined;
  /** What recipes learn about the connection from (recipe-support's `connectionStreamOf`). */
  readonly stream: ConnectionStream;
  sessionCredentials(): SessionCredentials | undefined;
  /** See `FrameworkClient.validUntilMs`: -Infinity once the client closed. */
  validUntilMs(): number;
  /** See FirstConnection.wait. */
  firstConnection(wait: FirstConnectionWaitOptions): Promise<void>;
  /**
   * True once connected (at once when connected now); false when `timeoutMs` passes first, the
   * client closes or the server refused its credentials. Rejects with `signal`'s reason.
   */
  blockUntilConnected(timeoutMs: number | undefined, signal?: AbortSignal): Promise<boolean>;
}

/**
 * The one owner of a client's connection state (Curator's `ConnectionStateManager`): the
 * state machine with its simulated session loss, the stream recipes read (loss epochs,
 * per-connection signals, validity), the first connection and `blockUntilConnected`. Everything
 * above the connection reads the state here; see docs/architecture.md, "Connection states".
 */
export class ConnectionStateManager implements ClientConnectionState {
  readonly #connection: ZooKeeperConnection;
  readonly #closing: AbortSignal;
  readonly #errorPolicy: ErrorPolicy;
  readonly #machine: ConnectionStateMachine;
  readonly #firstConnection: FirstConnection;
  readonly stream: ConnectionStream;
  readonly states: IterableObservable<ConnectionState>;

  constructor(options: ConnectionStateManagerOptions) {
    const { connection, closing, errorPolicy } = options;
    this.#connection = connection;
    this.#closing = closing;
    this.#errorPolicy = errorPolicy;
    this.#machine = new ConnectionStateMachine({
      events: connection.events,
      sessionExpirationPercent: options.sessionExpirationPercent,
      onSimulatedLoss: () => connection.resetSession('the session timeout ran out while SUSPENDED'),
      lastHeardMs: () => connection.lastHeardMs,
      logger: options.logger,
    });
    this.#firstConnection = new FirstConnection({
      changes: this.#machine.changes,
      closing,
      started: options.started,
      connectionTimeoutMs: options.connectionTimeoutMs,
      notConnected: (waitedMs) => connection.notConnectedError('not connected', waitedMs),
      authFailure: () => connection.authFailure ?? connection.tlsFailure,
      attemptFailures: connection.connectionFailures,
    });
    this.states = iterableObservable(this.#machine.states);
    this.stream = new ConnectionStream({
      changes: this.#machine.changes,
      currentState: () => this.#machine.state,
      isConnected: () => connection.connected,
      errorPolicy,
      validUntilMs: () => this.validUntilMs(),
      closing,
      report: options.report,
      firstConnection: this.#firstConnection,
    });
  }

  get state(): ConnectionState | undefined {
    return this.#machine.state;
  }

  get changes(): Observable<ConnectionStateChange> {
    return this.#machine.changes;
  }

  get isConnected(): boolean {
    return this.#connection.connected;
  }

  get sessionId(): bigint | undefined {
    return this.#connection.sessionId;
  }

  sessionCredentials(): SessionCredentials | undefined {
    return this.#connection.sessionCredentials();
  }

  validUntilMs(): number {
    if (this.#closing.aborted) return -Infinity;
    return this.#machine.validUntilMs(this.#errorPolicy, this.#connection.connected);
  }

  firstConnection(wait: FirstConnectionWaitOptions): Promise<void> {
    return this.#firstConnection.wait(wait);
  }

  async blockUntilConnected(timeoutMs: number | undefined, signal?: AbortSignal): Promise<boolean> {
    if (timeoutMs !== undefined) validateTimeoutMs('timeoutMs', timeoutMs);
    const connection = this.#connection;
    if (connection.connected) return true;
    if (this.#closing.aborted || connection.authFailed) return false;
    return new Promise<boolean>((resolve, reject) => {
      const stop = (): void => {
        clearTimeout(timer);
        subscription.unsubscribe();
        stopClose();
        stopAbort?.();
      };
      const finish = (value: boolean): void => {
        stop();
        resolve(value);
      };
      const onClose = (): void => finish(false);
      const onAborted = (): void => {
        stop();
        reject(signal?.reason as Error);
      };
      const stopClose = onAbort(this.#closing, onClose);
      const stopAbort = signal && onAbort(signal, onAborted);
      const timer =
        timeoutMs === undefined ? undefined : setTimeout(() => finish(false), timeoutMs);
      const subscription = this.#machine.changes.subscribe((change) => {
        if (change.state !== ConnectionState.SUSPENDED && change.state !== ConnectionState.LOST) {
          finish(true);
        } else if (connection.authFailed) {
          finish(false);
        }
      });
    });
  }

  /** Ends the state streams (after the connection closed). */
  close(): void {
    this.#machine.close();
  }
}
