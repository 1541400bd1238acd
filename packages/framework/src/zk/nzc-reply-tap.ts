/**
 * Lets the adapter read the body of replies nzc cannot decode (a multiRead's) or that the
 * adapter decodes faster itself (exists, getData, getChildren, setData). It sits in
 * front of nzc's socket data handler, cuts the byte stream into whole frames, and hands nzc
 * every frame as it is, except a successful reply to a request it was told to expect: that
 * request gets the body, and nzc gets the bare reply header, which it answers as it does a
 * delete (success, no payload). nzc then never sees a partial frame.
 */

/** The parts of nzc's ConnectionManager the tap uses. */
export interface TappableConnectionManager {
  readonly state: number;
  readonly socket: object | undefined;
  /** Requests written and not answered yet, oldest first: a reply answers the first one. */
  readonly pendingQueue: readonly {
    readonly request: { readonly header: { readonly xid: number } };
  }[];
  onSocketData(buffer: Buffer): void;
}

/** A request whose reply body the tap takes; nzc sets `header.xid` when it writes it. */
export interface TappedRequest {
  readonly header: { readonly xid: number };
  takeBody(body: Buffer): void;
}

/** nzc's CONNECTING: the one frame then is the handshake reply, which has no xid. */
const NZC_CONNECTING = 1;
/** length, then the reply header: xid, zxid, err. */
const LENGTH_BYTES = 4;
const REPLY_HEADER_BYTES = 16;

export class NzcReplyTap {
  readonly #manager: TappableConnectionManager;
  readonly #passOn: (frame: Buffer) => void;
  /** Keyed by the request's header object, which nzc's pending queue holds too. */
  readonly #expected = new Map<{ readonly xid: number }, TappedRequest>();
  /** Chunks of a frame not complete yet, and their total size. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #socket: object | undefined;

  constructor(manager: TappableConnectionManager) {
    this.#manager = manager;
    const original = manager.onSocketData.bind(manager);
    this.#passOn = original;
    // nzc binds `this.onSocketData` to each new socket: this own property is what it binds.
    manager.onSocketData = (chunk: Buffer): void => this.#onData(chunk);
  }

  /** Until its reply comes (or `forget`), `request`'s reply body goes to it, not to nzc. */
  expect(request: TappedRequest): void {
    this.#expected.set(request.header, request);
  }

  forget(request: TappedRequest): void {
    this.#expected.delete(request.header);
  }

  #onData(chunk: Buffer): void {
    const socket = this.#manager.socket;
    if (socket !== this.#socket) {
      // A new connection: what was left of the old one's stream is void.
      this.#socket = socket;
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    if (chunk.length === 0) return;
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    // A large reply comes in many chunks: join them once, when the frame is complete.
    if (this.#pendingBytes < LENGTH_BYTES || this.#pendingBytes < this.#frameEnd()) return;
    const buffer = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    let offset = 0;
    while (buffer.length - offset >= LENGTH_BYTES) {
      const end = offset + LENGTH_BYTES + buffer.readInt32BE(offset);
      if (end > buffer.length) break;
      const frame = buffer.subarray(offset, end);
      offset = end;
      this.#passOn(this.#filter(frame));
      // nzc may have dropped the connection over that frame: the rest belongs to a dead one.
      if (this.#manager.socket !== socket) return;
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
    return LENGTH_BYTES + head.readInt32BE(0);
  }

  #filter(frame: Buffer): Buffer {
    if (this.#expected.size === 0 || this.#manager.state === NZC_CONNECTING) return frame;
    if (frame.length < LENGTH_BYTES + REPLY_HEADER_BYTES) return frame;
    const xid = frame.readInt32BE(LENGTH_BYTES);
    if (xid < 0) return frame; // notification, ping, auth
    // Replies come in request order: this one answers the head of nzc's pending queue (on any
    // other xid nzc drops the connection). One lookup, however many tapped requests are out.
    const head = this.#manager.pendingQueue[0];
    const request = head && this.#expected.get(head.request.header);
    if (request?.header.xid !== xid) return frame;
    this.#expected.delete(request.header);
    const err = frame.readInt32BE(LENGTH_BYTES + 12);
    if (err !== 0) return frame; // nzc reports the error to the request's callback
    request.takeBody(frame.subarray(LENGTH_BYTES + REPLY_HEADER_BYTES));
    const bare = Buffer.alloc(LENGTH_BYTES + REPLY_HEADER_BYTES);
    bare.writeInt32BE(REPLY_HEADER_BYTES, 0);
    frame.copy(bare, LENGTH_BYTES, LENGTH_BYTES, LENGTH_BYTES + REPLY_HEADER_BYTES);
    return bare;
  }
}
