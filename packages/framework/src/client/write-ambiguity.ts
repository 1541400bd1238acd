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

  /** Runs one attempt, noting whether its failure leaves the write's outcome open. */
  async attempt<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isRetryable(error) && wasSent(error)) this.#ambiguous = true;
      throw error;
    }
  }
}
