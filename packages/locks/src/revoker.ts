import {
  type FrameworkClient,
  isNoNode,
  type SignalOptions,
  validatePath,
} from '@zkrecipes/framework';
import { checkClient, checkRecipeOptions, signalOption } from '@zkrecipes/framework/recipe-support';

/**
 * What a revocation request writes into a lock node: the 10 bytes of `__REVOKE__` (Curator's
 * `LockInternals.REVOKE_MESSAGE`).
 */
export const REVOKE_MESSAGE: Uint8Array = new TextEncoder().encode('__REVOKE__');

/**
 * Asks the holder of a lock node to let go (Curator's `Revoker`). Revocation is cooperative:
 * the holder's mutex must have been made revocable (`InterProcessMutex.makeRevocable`, also
 * Curator's), and its listener decides what to do.
 */
export const Revoker = {
  /**
   * Writes `__REVOKE__` into the lock node at `path`, one of `mutex.getParticipantNodes()`
   * (Curator's `Revoker.attemptRevoke`). A node that is gone already is fine (nothing to
   * revoke). The holder, if it made its mutex revocable, gets a revocation request; a Java
   * holder using Curator does too.
   *
   * @example
   * const [holder] = await mutex.getParticipantNodes();
   * if (holder !== undefined) await Revoker.attemptRevoke(client, holder);
   */
  async attemptRevoke(
    client: FrameworkClient,
    path: string,
    options: SignalOptions = {},
  ): Promise<void> {
    checkClient('Revoker', client);
    validatePath(path);
    checkRecipeOptions('options', options, ['signal']);
    const signal = signalOption(options.signal);
    try {
      await client.setData(path, REVOKE_MESSAGE, { signal });
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
  },
};
