import { OperationTimeoutError } from '../errors/zookeeper-error-classes.js';
import { DueSweep } from '../retry/due-sweep.js';

/**
 * Puts a deadline on every sent request without a timer per request (a DueSweep): overdue
 * requests fail with OPERATION_TIMEOUT (outcome unknown) up to a sweep interval late, which
 * costs nothing that matters next to a timer and a race per request on a busy client.
 */
export class RequestDeadlines {
  readonly #timeoutMs: number;
  readonly #sweep: DueSweep;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#sweep = new DueSweep(Math.max(10, Math.min(250, Math.floor(timeoutMs / 10))));
  }

  /** Settles like `request`, or rejects with OperationTimeoutError once it is overdue. */
  track<T>(request: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const cancel = this.#sweep.after(this.#timeoutMs, () => {
        settled = true;
        reject(new OperationTimeoutError({ detail: `no reply within ${this.#timeoutMs} ms` }));
      });
      request.then(
        (value) => {
          if (settled) return;
          cancel();
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          cancel();
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
          reject(error);
        },
      );
    });
  }

  /** Stops the sweep (on close); requests still in flight settle on their own. */
  stop(): void {
    this.#sweep.stop();
  }
}
