import { onAnyAbort } from '../async/on-abort.js';

/** A call's place in line, from {@link CallOrderGate.enter}. */
export interface CallTurn {
  /** Resolves when every call before it has sent its first request; rejects on abort or close. */
  readonly ready: Promise<void>;
  /** Call once this call's first request is out (or it gave up): the next call may go. */
  done(): void;
}

interface Waiting {
  readonly prerequisite: Promise<void> | undefined;
  prerequisiteMet: boolean;
  released: boolean;
  readonly release: () => void;
  readonly fail: (reason: unknown) => void;
}

/**
 * Keeps call order across the one step that can make an operation wait before its first
 * request: a namespace node still being created. Curator creates it synchronously in the
 * caller's thread; here the waiting call takes a place in line and every call made after it,
 * in any namespace view of the client, waits behind it, so requests still reach the
 * connection in call order. While nobody waits, `enter` answers undefined: no promise, no hop.
 */
export class CallOrderGate {
  readonly #line: Waiting[] = [];
  readonly #closedSignal: AbortSignal;

  constructor(closedSignal: AbortSignal) {
    this.#closedSignal = closedSignal;
  }

  /**
   * A place in line for a call that must first wait for `prerequisite` (undefined: nothing),
   * or undefined when the call may go now. `signal` takes it out of the line.
   */
  enter(prerequisite: Promise<void> | undefined, signal?: AbortSignal): CallTurn | undefined {
    if (prerequisite === undefined && this.#line.length === 0) return undefined;
    let waiting!: Waiting;
    const ready = new Promise<void>((resolve, reject) => {
      waiting = {
        prerequisite,
        prerequisiteMet: prerequisite === undefined,
        released: false,
        release: resolve,
        fail: reject,
      };
    });
    this.#line.push(waiting);
    const leave = (reason: unknown): void => {
      if (waiting.released) return;
      this.#remove(waiting);
      waiting.fail(reason);
    };
    const stopListening = onAnyAbort([signal, this.#closedSignal], (aborted) =>
      leave(aborted.reason),
    );
    void prerequisite?.then(() => {
      waiting.prerequisiteMet = true;
      this.#pump();
    });
    this.#pump();
    return {
      ready,
      done: () => {
        stopListening();
        this.#remove(waiting);
      },
    };
  }

  #remove(waiting: Waiting): void {
    const index = this.#line.indexOf(waiting);
    if (index < 0) return;
    this.#line.splice(index, 1);
    if (index === 0) this.#pump();
  }

  /** Releases the head of the line once its prerequisite is met; it leaves through done(). */
  #pump(): void {
    if (this.#closedSignal.aborted) return; // every waiting call is rejected instead
    const head = this.#line[0];
    if (head === undefined || head.released || !head.prerequisiteMet) return;
    head.released = true;
    head.release();
  }
}
