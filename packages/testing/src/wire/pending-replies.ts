// Requests waiting for their replies, each with its own deadline. The server answers a
// session's requests in order and tags each reply with the request's xid; pings all share
// xid -2, so they are matched first in, first out.
import type { JuteReader } from '@zkrecipes/wire';
import { Xid, ZooKeeperErrorCode } from './protocol.js';
import { RawZooKeeperError } from './raw-zookeeper-error.js';

interface Pending {
  resolve: (reader: JuteReader) => void;
  fail: (code: number | 'TIMEOUT', detail: string | undefined, cause?: unknown) => void;
  timer: NodeJS.Timeout;
}

export class PendingReplies {
  #byXid = new Map<number, Pending>();
  #pings: Pending[] = [];

  constructor(readonly timeoutMs: number) {}

  /**
   * Resolves with the reply body for `xid`. Rejects with the server's error code, with
   * 'TIMEOUT' when no reply comes within `timeoutMs` (a late reply is then ignored), or
   * with CONNECTION_LOSS from failAll(). `describe()` (called only on failure: the bench's
   * wire floor sends thousands of requests) and `path` go into the error.
   */
  expect(xid: number, describe: () => string, path: string | undefined): Promise<JuteReader> {
    return new Promise((resolve, reject) => {
      const entry: Pending = {
        resolve,
        fail: (code, detail, cause) => {
          const what = describe();
          reject(
            new RawZooKeeperError(code, detail === undefined ? what : `${what}: ${detail}`, {
              path,
              cause,
            }),
          );
        },
        timer: setTimeout(() => {
          if (xid === Xid.ping) this.#pings = this.#pings.filter((p) => p !== entry);
          else this.#byXid.delete(xid);
          entry.fail('TIMEOUT', `no reply within ${this.timeoutMs} ms`);
        }, this.timeoutMs),
      };
      if (xid === Xid.ping) this.#pings.push(entry);
      else this.#byXid.set(xid, entry);
    });
  }

  /** Hands a reply to whoever waits for it; nobody does if its deadline passed. */
  settle(xid: number, err: number, body: JuteReader): void {
    const entry = xid === Xid.ping ? this.#pings.shift() : this.#byXid.get(xid);
    if (entry === undefined) return;
    this.#byXid.delete(xid);
    clearTimeout(entry.timer);
    if (err === 0) entry.resolve(body);
    else entry.fail(err, undefined);
  }

  /** The connection is gone: every waiting request fails with CONNECTION_LOSS. */
  failAll(message: string, cause: unknown): void {
    const entries = [...this.#byXid.values(), ...this.#pings];
    this.#byXid.clear();
    this.#pings = [];
    for (const entry of entries) {
      clearTimeout(entry.timer);
      entry.fail(ZooKeeperErrorCode.CONNECTION_LOSS, message, cause);
    }
  }
}
