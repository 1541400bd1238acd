/**
 * Answers the adapter's raw requests itself and leaves everything else to nzc. It sits in front
 * of nzc's socket data handler and cuts the byte stream into whole frames. A reply to a raw
 * request (see nzc-raw-request.ts) at the head of nzc's pending queue is taken off that queue
 * and handed to the request's callback with its body, as nzc would (the zxid noted), a server
 * error as a ServerReplyError of our own: nzc's generic decoding of the header, and a second
 * pass for the reply's record, are skipped. nzc's Exception.create is not used for them: it
 * throws on codes nzc does not know (SESSION_MOVED -118, QUOTA_EXCEEDED -125, ...), and
 * replacing it would change nzc for every other user of it in the process. Watch notifications
 * are decoded here too (by @zkrecipes/wire) and handed to `notify`, which gives them to nzc's
 * watcher manager as nzc's own handler would. Every other frame (pings, auth, nzc's own
 * requests) goes to nzc whole, in wire order: nzc never sees a partial frame.
 *
 * Of the frames nzc still reads itself, the handshake reply has no error code, and a ping's
 * or an auth reply's code nzc only compares; only a reply to one of its own queued requests
 * (SetWatches, closeSession) goes through its Exception.create. One carrying a code nzc does
 * not know would throw inside its socket handler and crash the process: the tap ends that
 * connection instead, as a connection loss (nzc fails the pending requests with
 * CONNECTION_LOSS and, unless it was closing, reconnects and sends SetWatches again).
 */
import { Buffer } from 'node:buffer';
import { decodeWatcherEvent, readInt32, type WatcherEvent } from '@zkrecipes/wire';

/** A request written and not answered yet, as nzc's pending queue holds it. */
export interface PendingPacket {
  readonly request: {
    readonly header: { readonly xid: number };
    /** Set on the adapter's raw requests: their replies are answered here. */
    readonly raw?: true;
  };
  /** Called with the server's error (or null) and the reply body. */
  readonly callback?: (error: ServerReplyError | null, body?: Buffer) => void;
}

/**
 * The server's error code on a reply the tap answered. A plain record, not an Error: the
 * adapter maps the code to a typed error with the request's path, and a stack taken inside
 * the socket handler would say nothing (and cost a measurable share of a NO_NODE).
 */
export interface ServerReplyError {
  readonly code: number;
}

/** The parts of nzc's ConnectionManager the tap uses. */
export interface TappableConnectionManager {
  readonly state: number;
  readonly socket: { destroy(): void } | undefined;
  /** Requests written and not answered yet, oldest first: a reply answers the first one. */
  readonly pendingQueue: PendingPacket[];
  /** The zxid of the last reply (8 bytes): nzc sends it with its next handshake and SetWatches. */
  zxid: Buffer;
  onSocketData(buffer: Buffer): void;
}

/** What the tap needs from the adapter. */
export interface NzcReplyTapOptions {
  /** Gets each watch notification, its path as the server sent it. */
  readonly notify: (event: WatcherEvent) => void;
  /** Whether nzc's own reply handling takes this error code (its Exception.create knows it). */
  readonly nzcKnowsCode: (code: number) => boolean;
  /**
   * Called as a reply (to anything, a ping included) says SESSION_CLOSED_REQUIRE_SASL_AUTH: the
   * server requires SASL of this connection and is closing it, and every new one will meet the
   * same answer. Before the reply itself is handled.
   */
  readonly onSaslRequired?: () => void;
  /**
   * Sees each handshake reply's payload before nzc reads it; false ends that connection instead
   * (nzc never sees the frame). Default: every handshake reply goes to nzc unseen.
   */
  readonly handshake?: ((payload: Buffer) => boolean) | undefined;
}

/** The xid of a watch notification. */
const XID_NOTIFICATION = -1;
/** nzc's CONNECTING: the one frame then is the handshake reply, which has no xid. */
const NZC_CONNECTING = 1;
/** length, then the reply header: xid, zxid, err. */
const LENGTH_BYTES = 4;
const REPLY_HEADER_BYTES = 16;
const ZXID_OFFSET = LENGTH_BYTES + 4;
const ERR_OFFSET = LENGTH_BYTES + 12;
/** The server requires SASL and closes the connection (-124). */
const SESSION_CLOSED_REQUIRE_SASL_AUTH = -124;

export class NzcReplyTap {
  readonly #manager: TappableConnectionManager;
  readonly #passOn: (frame: Buffer) => void;
  readonly #options: NzcReplyTapOptions;
  /** Chunks of a frame not complete yet, and their total size. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #socket: object | undefined;
  /** A socket the tap ended: whatever is left of its stream is dropped. */
  #ended: object | undefined;

  constructor(manager: TappableConnectionManager, options: NzcReplyTapOptions) {
    this.#manager = manager;
    this.#options = options;
    const original = manager.onSocketData.bind(manager);
    this.#passOn = original;
    // nzc binds `this.onSocketData` to each new socket: this own property is what it binds.
    manager.onSocketData = (chunk: Buffer): void => this.#onData(chunk);
  }

  #onData(chunk: Buffer): void {
    const socket = this.#manager.socket;
    if (socket !== this.#socket) {
      // A new connection: what was left of the old one's stream is void.
      this.#socket = socket;
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    if (chunk.length === 0 || socket === this.#ended) return;
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    // A large reply comes in many chunks: join them once, when the frame is complete.
    if (this.#pendingBytes < LENGTH_BYTES || this.#pendingBytes < this.#frameEnd()) return;
    const buffer = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    let offset = 0;
    while (buffer.length - offset >= LENGTH_BYTES) {
      const end = offset + LENGTH_BYTES + readInt32(buffer, offset);
      if (end > buffer.length) break;
      const frame = buffer.subarray(offset, end);
      offset = end;
      const passed = this.#filter(frame);
      if (passed !== undefined) this.#passOn(passed);
      // nzc or the tap may have dropped the connection over that frame: the rest belongs to a
      // dead one.
      if (this.#manager.socket !== socket || socket === this.#ended) return;
    }
    if (offset < buffer.length) {
      const rest = Buffer.from(buffer.subarray(offset));
      this.#pending = [rest];
      this.#pendingBytes = rest.length;
    }
  }

  /** Where the first pending frame ends (its length prefix may span chunks). */
  #frameEnd(): number {
    const first = this.#pending[0]!;
    const head = first.length >= LENGTH_BYTES ? first : Buffer.concat(this.#pending);
    return LENGTH_BYTES + readInt32(head, 0);
  }

  /** `frame` if nzc is to handle it; undefined when it was handled here. */
  #filter(frame: Buffer): Buffer | undefined {
    const manager = this.#manager;
    if (manager.state === NZC_CONNECTING) return this.#handshake(frame);
    if (frame.length < LENGTH_BYTES + REPLY_HEADER_BYTES) return frame;
    const xid = readInt32(frame, LENGTH_BYTES);
    if (xid === XID_NOTIFICATION) return this.#notification(frame);
    if (readInt32(frame, ERR_OFFSET) === SESSION_CLOSED_REQUIRE_SASL_AUTH) {
      this.#options.onSaslRequired?.();
    }
    if (xid < 0) return frame; // ping, auth
    // Replies come in request order: this one answers the head of nzc's pending queue (on any
    // other xid nzc drops the connection, so that case stays nzc's).
    const head = manager.pendingQueue[0];
    if (head?.request.header.xid !== xid) return frame;
    const err = readInt32(frame, ERR_OFFSET);
    if (head.request.raw !== true) {
      // nzc's own request: a code its Exception.create does not know would throw inside its
      // handler, so the connection ends here instead, as a loss (see the top of this file).
      if (err === 0 || this.#options.nzcKnowsCode(err)) return frame;
      this.#ended = manager.socket;
      manager.socket?.destroy();
      return undefined;
    }
    manager.pendingQueue.shift();
    // A view, not a copy: every socket read has a buffer of its own, and this one is kept
    // only until the next reply replaces it.
    manager.zxid = frame.subarray(ZXID_OFFSET, ZXID_OFFSET + 8);
    head.callback?.(
      err === 0 ? null : { code: err },
      frame.subarray(LENGTH_BYTES + REPLY_HEADER_BYTES),
    );
    return undefined;
  }

  #handshake(frame: Buffer): Buffer | undefined {
    const check = this.#options.handshake;
    if (check === undefined || check(frame.subarray(LENGTH_BYTES))) return frame;
    this.#ended = this.#manager.socket;
    this.#manager.socket?.destroy();
    return undefined;
  }

  #notification(frame: Buffer): Buffer | undefined {
    let event: WatcherEvent;
    try {
      event = decodeWatcherEvent(frame.subarray(LENGTH_BYTES + REPLY_HEADER_BYTES));
    } catch {
      return frame; // not what we expect: nzc's handler decides what to do with it
    }
    this.#options.notify(event);
    return undefined;
  }
}
