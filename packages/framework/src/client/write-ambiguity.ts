import { wasSent } from '../errors/never-sent.js';
import { isRetryable } from '../errors/predicates.js';

/**
 * Whether a write call has had an attempt sent and cut off (a retryable failure after sending:
 * connection loss, a deadline, the session gone). From then on the server may hold the write,
 * and a conflict met by a retry (BAD_VERSION, NO_NODE, NODE_EXISTS) may be of its own making.
 */
export class WriteAmbiguity {
  #ambiguous = false;

  get ambiguous(): boolean {
    return this.#ambiguous;
  }

  /**
   * One attempt's promise, noting whether its failure leaves the write's outcome open. It takes
   * the attempt already sent, not a callback: the send stays in the caller's frame, one frame
   * (and a closure) less on every write (docs/benchmarks.md, request frames).
   */
  attempt<T>(sent: Promise<T>): Promise<T> {
    return sent.catch(this.#note);
  }

  readonly #note = (error: unknown): never => {
    if (isRetryable(error) && wasSent(error)) this.#ambiguous = true;
    throw error;
  };
}
