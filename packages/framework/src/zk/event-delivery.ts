import { currentTurn, isCurrentTurn } from './event-loop-turn.js';

interface Entry {
  readonly run: () => void;
  /** An event, dropped once the client closes; a reply's settlement always runs. */
  readonly event: boolean;
}

/**
 * Hands what the server sends to the code waiting for it in the order it arrived, as the
 * single event thread of ZooKeeper's Java client does: watch notifications (one-shot and
 * persistent), the SESSION_EXPIRED told to outstanding watchers, the connection's own events
 * (connected, disconnected, expired), and the replies that arrive while any of those wait.
 *
 * The wire client reads a socket batch in one call of its data handler. A reply there only
 * resolves a promise, and the code awaiting it resumes in a microtask, after the handler: an
 * event delivered synchronously would overtake it ("the watch fired" before "my read is
 * back"). So an event read in the same macrotask as an earlier reply waits for a later one
 * (`setImmediate`), when every continuation of every earlier reply has run, and a reply read
 * after a waiting event settles only once that event was delivered, in a macrotask of its own
 * so its continuation runs before the next event. An event with no reply settled before it in
 * this macrotask has nothing to wait for: it is delivered as soon as the handler that read it
 * returns (a microtask), which spares a hand-over (a lock waiter told its predecessor is gone)
 * the wait for the event loop's other I/O.
 *
 * A listener never throws here: every caller isolates its own listeners.
 */
export class EventDelivery {
  #pending: Entry[] = [];
  #scheduled = false;
  #closed = false;
  /**
   * The event-loop turn in which a reply was last settled: while it lasts, that reply's
   * continuation may not have run yet.
   */
  #settledTurn = -1;
  /** Inside #drain: entries taken from #pending may not have run yet. */
  #draining = false;

  /** Queues an event behind everything queued before it. */
  push(deliver: () => void): void {
    if (this.#closed) return;
    if (this.#pending.length === 0 && !isCurrentTurn(this.#settledTurn) && !this.#draining) {
      queueMicrotask(() => {
        if (!this.#closed) deliver();
      });
      return;
    }
    this.#enqueue({ run: deliver, event: true });
  }

  /** Settles a reply now, or behind the events that arrived before it. */
  inOrder(settle: () => void): void {
    if (this.#pending.length > 0) {
      this.#enqueue({ run: settle, event: false });
      return;
    }
    this.#settle(settle);
  }

  /** Drops the events still queued (the client is closed); the replies settle at once. */
  close(): void {
    this.#closed = true;
    const pending = this.#pending;
    this.#pending = [];
    for (const entry of pending) if (!entry.event) entry.run();
  }

  /** Settles a reply and notes that its continuation may still be pending in this turn. */
  #settle(settle: () => void): void {
    this.#settledTurn = currentTurn();
    settle();
  }

  #enqueue(entry: Entry): void {
    this.#pending.push(entry);
    this.#reschedule();
  }

  #drain(): void {
    this.#scheduled = false;
    this.#draining = true;
    try {
      this.#deliverBatch();
    } finally {
      this.#draining = false;
    }
  }

  #deliverBatch(): void {
    const batch = this.#pending;
    this.#pending = [];
    for (let i = 0; i < batch.length; i++) {
      const entry = batch[i]!;
      if (entry.event) {
        if (!this.#closed) entry.run();
        continue;
      }
      this.#settle(entry.run);
      if (i + 1 < batch.length) {
        // Let the settled reply's continuation run before the next event.
        const rest = batch.slice(i + 1);
        if (this.#closed) {
          for (const left of rest) if (!left.event) left.run();
          return;
        }
        this.#pending = rest.concat(this.#pending);
        this.#reschedule();
        return;
      }
    }
  }

  #reschedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#drain());
  }
}
