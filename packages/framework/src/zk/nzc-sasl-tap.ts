/**
 * SASL on every new connection of one nzc client, before nzc sees the connection as up. The
 * handshake reply is held back from nzc (which would otherwise turn CONNECTED and write its
 * queued requests, credentials and SetWatches at once), the mechanism's tokens are exchanged
 * with `sasl` requests (op 102) on the socket, and only once the server accepted them is the
 * handshake reply handed to nzc. So nothing but SASL reaches a server that requires it first,
 * and nothing the framework parked is released before the session is authenticated, as
 * ZooKeeper's Java client holds its outgoing queue until SASL completes.
 *
 * A per-instance override of the connection manager's data handler, installed before the
 * reply tap: it sees whole frames. The exchange is bounded by the connection's handshake
 * watchdog (a connection not up in time is dropped, and the next one starts over); a refusal
 * or a mechanism error is terminal, reported through `onFailure`.
 */
import { Buffer } from 'node:buffer';
import {
  decodeConnectResponse,
  decodeSaslResponse,
  encodeSaslRequest,
  readInt32,
  ZooKeeperErrorCode,
} from '@zkrecipes/wire';
import { errorFromCode } from '../errors/error-from-code.js';
import { AuthFailedError } from '../errors/zookeeper-error-classes.js';
import type { SaslMechanism } from '../sasl/sasl-mechanism.js';

/** The parts of nzc's ConnectionManager the SASL tap uses. */
export interface SaslTappableManager {
  readonly state: number;
  readonly socket:
    | {
        write(data: Buffer): boolean;
        destroy(): void;
        once(event: 'close', f: () => void): unknown;
      }
    | undefined;
  /** nzc's xid counter: SASL requests take theirs from it, as the Java client's do. */
  xid: number;
  onSocketData(buffer: Buffer): void;
}

export interface SaslTapOptions {
  readonly mechanism: SaslMechanism;
  /** How the exchange is named in errors, e.g. `DIGEST-MD5 as 'bob'`. */
  readonly describe: string;
  /** True once the client closed or was abandoned: nothing more to do. */
  readonly isOver: () => boolean;
  /** The server refused, or the mechanism failed: terminal. Called at most once per exchange. */
  readonly onFailure: (error: AuthFailedError) => void;
}

/** nzc's CONNECTING: the handshake reply is the next frame. */
const NZC_CONNECTING = 1;
const LENGTH_BYTES = 4;
const REPLY_HEADER_BYTES = 16;
const { AUTH_FAILED, SESSION_CLOSED_REQUIRE_SASL_AUTH } = ZooKeeperErrorCode;

/** The connection went before the exchange ended: not a failure, the next one starts over. */
class ConnectionGone extends Error {}

type Socket = NonNullable<SaslTappableManager['socket']>;

export function tapSaslHandshake(manager: SaslTappableManager, options: SaslTapOptions): void {
  const passOn = manager.onSocketData.bind(manager);
  let current: SaslExchange | undefined;
  manager.onSocketData = (frame: Buffer): void => {
    const socket = manager.socket;
    if (manager.state !== NZC_CONNECTING || !socket) {
      passOn(frame);
      return;
    }
    if (current?.socket === socket) {
      current.reply(frame);
      return;
    }
    // The handshake reply of a new connection. An expired session (timeout 0) is nzc's to
    // report; there is nothing to authenticate.
    const handshake = Buffer.from(frame);
    if (decodeConnectResponse(handshake.subarray(LENGTH_BYTES)).sessionTimeoutMs <= 0) {
      passOn(handshake);
      return;
    }
    const exchange = new SaslExchange(manager, socket, options);
    current = exchange;
    exchange.run().then(
      () => {
        if (exchange.isCurrent() && !options.isOver()) passOn(handshake);
      },
      (error: unknown) => {
        if (error instanceof ConnectionGone || options.isOver()) return;
        options.onFailure(
          error instanceof AuthFailedError
            ? error
            : new AuthFailedError({
                detail: `SASL ${options.describe} failed: ${(error as Error)?.message ?? String(error)}`,
                cause: error,
              }),
        );
      },
    );
  };
}

/** One connection's exchange of tokens. */
class SaslExchange {
  readonly socket: Socket;
  readonly #manager: SaslTappableManager;
  readonly #options: SaslTapOptions;
  #waiting:
    { xid: number; resolve: (frame: Buffer) => void; reject: (e: Error) => void } | undefined;
  #gone = false;

  constructor(manager: SaslTappableManager, socket: Socket, options: SaslTapOptions) {
    this.#manager = manager;
    this.socket = socket;
    this.#options = options;
    socket.once('close', () => {
      this.#gone = true;
      this.#waiting?.reject(new ConnectionGone());
    });
  }

  isCurrent(): boolean {
    return !this.#gone && this.#manager.socket === this.socket;
  }

  async run(): Promise<void> {
    const mechanism = this.#options.mechanism;
    let token: Buffer | undefined = await mechanism.start();
    for (;;) {
      const challenge = await this.#send(token);
      if (mechanism.complete) return;
      token = await mechanism.evaluate(challenge);
      if (token === undefined) {
        if (mechanism.complete) return;
        throw new Error(`the ${mechanism.name} mechanism has nothing to send and is not complete`);
      }
    }
  }

  /** Sends `token` and resolves the server's answer; rejects with the server's refusal. */
  async #send(token: Buffer): Promise<Buffer> {
    if (!this.isCurrent() || this.#options.isOver()) throw new ConnectionGone();
    const xid = this.#manager.xid++;
    const frame = await new Promise<Buffer>((resolve, reject) => {
      this.#waiting = { xid, resolve, reject };
      this.socket.write(encodeSaslRequest(xid, token));
    });
    this.#waiting = undefined;
    const err = readInt32(frame, LENGTH_BYTES + 12);
    if (err !== 0) throw this.#refusal(err);
    return decodeSaslResponse(frame.subarray(LENGTH_BYTES + REPLY_HEADER_BYTES));
  }

  /** A frame while the exchange runs: the answer to the last token. */
  reply(frame: Buffer): void {
    const waiting = this.#waiting;
    if (!waiting || frame.length < LENGTH_BYTES + REPLY_HEADER_BYTES) {
      this.socket.destroy(); // nothing was asked: not a conversation we can follow
      return;
    }
    if (readInt32(frame, LENGTH_BYTES) !== waiting.xid) {
      this.socket.destroy();
      return;
    }
    waiting.resolve(Buffer.from(frame));
  }

  #refusal(err: number): AuthFailedError {
    const cause = errorFromCode(err);
    const why =
      err === AUTH_FAILED
        ? 'the server refused the credentials (AUTH_FAILED): wrong user name or password?'
        : err === SESSION_CLOSED_REQUIRE_SASL_AUTH
          ? 'the server refused the credentials and requires SASL (SESSION_CLOSED_REQUIRE_SASL_AUTH): wrong user name or password?'
          : `the server answered ${cause.code}`;
    return new AuthFailedError({ detail: `SASL ${this.#options.describe}: ${why}`, cause });
  }
}
