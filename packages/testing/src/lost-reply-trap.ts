// FaultProxy.loseReply: what a rolling restart does to a write in flight. The request reaches
// the server and is applied, its reply never comes back, and the link is reset soon after; the
// session lives on and the client reconnects. One trap per call, shared by every connection of
// the proxy, so exactly one request (the first that matches, on any connection) loses its reply.
import { OpCode } from '@zkrecipes/wire';
import type { FrameTap, ProxiedConnection } from './proxied-connection.js';
import { readZkRequest, type ZkRequest } from './zk-request.js';

/** What loseReply reports once the reply was dropped and the connection reset. */
export interface LostReply {
  /** The request's op code (ZooKeeper's: 1 create, 2 delete, 5 setData, 14 multi, 15 create2, 19 createContainer, 21 createTTL, ...). */
  readonly opCode: number;
  /** The request's xid. */
  readonly xid: number;
  /** The error code of the dropped reply (0: the request was applied). */
  readonly err: number;
  /** The server path of the request when it has one as its first field (create/delete/setData/...); undefined for multi. */
  readonly path: string | undefined;
}

/** Options of {@link FaultProxy.loseReply}. */
export interface LoseReplyOptions {
  /** Only a request with one of these op codes (numbers, or names 'create' | 'delete' | 'setData' | 'multi' | 'create2' | 'createContainer' | 'createTTL' | 'getData' | 'exists' | 'getChildren' | 'getChildren2' | 'sync' ...) is picked. Default: the next write (create, delete, setData, setACL, multi, create2, createContainer, createTTL). */
  readonly ops?: readonly (number | string)[];
  /** Only a request whose path starts with this prefix (server path, chroot included); a multi matches when one of its ops' paths does. Optional. */
  readonly pathPrefix?: string;
  /** How many matching requests to let through first (their replies arrive). Default 0. */
  readonly skip?: number;
  /** How long after dropping the reply the connection is reset (both sides see ECONNRESET). Default 15. */
  readonly resetAfterMs?: number;
  /** Aborting disarms the mode and rejects the promise with the signal's reason. */
  readonly signal?: AbortSignal;
}

const WRITES = [
  OpCode.create,
  OpCode.delete,
  OpCode.setData,
  OpCode.setACL,
  OpCode.multi,
  OpCode.create2,
  OpCode.createContainer,
  OpCode.createTTL,
];

type TrapState =
  | { type: 'ARMED' }
  | { type: 'PICKED'; connection: ProxiedConnection; request: ZkRequest }
  | { type: 'DROPPED'; connection: ProxiedConnection; lost: LostReply; timer: NodeJS.Timeout }
  | { type: 'DONE' };

/** One pending loseReply: picks a request, drops its reply, resets, then settles. */
export class LostReplyTrap implements FrameTap {
  readonly promise: Promise<LostReply>;
  #state: TrapState = { type: 'ARMED' };
  readonly #ops: ReadonlySet<number>;
  readonly #pathPrefix: string | undefined;
  readonly #resetAfterMs: number;
  #toSkip: number;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = (): void => this.cancel(this.#signal?.reason);
  readonly #onDone: (trap: LostReplyTrap) => void;
  #resolve!: (lost: LostReply) => void;
  #reject!: (reason: unknown) => void;

  /** Throws on a bad option; `onDone` runs once it settles, whichever way. */
  constructor(options: LoseReplyOptions, onDone: (trap: LostReplyTrap) => void) {
    this.#ops = new Set((options.ops ?? WRITES).map(opCodeOf));
    this.#pathPrefix = options.pathPrefix;
    this.#resetAfterMs = options.resetAfterMs ?? 15;
    if (!Number.isFinite(this.#resetAfterMs) || this.#resetAfterMs < 0) {
      throw new Error(`FaultProxy.loseReply: resetAfterMs must be >= 0, got ${this.#resetAfterMs}`);
    }
    this.#toSkip = options.skip ?? 0;
    if (!Number.isInteger(this.#toSkip) || this.#toSkip < 0) {
      throw new Error(
        `FaultProxy.loseReply: skip must be a whole number >= 0, got ${this.#toSkip}`,
      );
    }
    this.#onDone = onDone;
    this.promise = new Promise<LostReply>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#signal = options.signal;
    if (this.#signal?.aborted) this.cancel(this.#signal.reason);
    else this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** False once it resolved or was rejected. */
  get pending(): boolean {
    return this.#state.type !== 'DONE';
  }

  request(connection: ProxiedConnection, body: Buffer): void {
    if (this.#state.type !== 'ARMED') return;
    const request = readZkRequest(body);
    // Negative xids are the client's own housekeeping (pings, auth, setWatches).
    if (request === undefined || request.xid < 0 || !this.#ops.has(request.opCode)) return;
    const prefix = this.#pathPrefix;
    if (prefix !== undefined && !request.paths.some((path) => path.startsWith(prefix))) return;
    if (this.#toSkip > 0) {
      this.#toSkip -= 1;
      return;
    }
    this.#state = { type: 'PICKED', connection, request };
  }

  reply(connection: ProxiedConnection, body: Buffer): boolean {
    const state = this.#state;
    if (state.type !== 'PICKED' || state.connection !== connection) return false;
    // ReplyHeader {int xid, long zxid, int err}
    if (body.length < 16 || body.readInt32BE(0) !== state.request.xid) return false;
    const { opCode, xid, path } = state.request;
    const lost = { opCode, xid, err: body.readInt32BE(12), path };
    const timer = setTimeout(() => this.#settle(() => this.#resolve(lost)), this.#resetAfterMs);
    this.#state = { type: 'DROPPED', connection, lost, timer };
    return true;
  }

  /** A connection closed: a request picked on it whose reply never came is forgotten. */
  closed(connection: ProxiedConnection): void {
    if (this.#state.type === 'PICKED' && this.#state.connection === connection) {
      this.#state = { type: 'ARMED' };
    }
  }

  /** Disarms and rejects; a reply already dropped has its connection reset at once. */
  cancel(reason: unknown): void {
    this.#settle(() => this.#reject(reason));
  }

  #settle(settle: () => void): void {
    const state = this.#state;
    if (state.type === 'DONE') return;
    this.#state = { type: 'DONE' };
    if (state.type === 'DROPPED') {
      clearTimeout(state.timer);
      state.connection.reset();
    }
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#onDone(this);
    settle();
  }
}

/** A number as it is, a name through ZooKeeper's OpCode table. */
function opCodeOf(op: number | string): number {
  if (typeof op === 'number' && Number.isInteger(op)) return op;
  if (typeof op === 'string' && Object.hasOwn(OpCode, op)) {
    return OpCode[op as keyof typeof OpCode];
  }
  throw new Error(`FaultProxy.loseReply: unknown op ${JSON.stringify(op)}`);
}
