// The protocol's numbers come from @zkrecipes/wire, where the framework gets them too. This
// file keeps the testing package's own names on top: the four create modes the raw session's
// create takes, and an error-code name for messages that keeps an unknown number visible.
import { codeName, CreateFlag } from '@zkrecipes/wire';

export { OpCode, Perms, Xid, ZooKeeperErrorCode } from '@zkrecipes/wire';

/** The create modes the raw session's `create` takes, with their wire flags. */
export const CreateMode = {
  /** A node that stays until it is deleted (wire flag 0). */
  PERSISTENT: CreateFlag.PERSISTENT,
  /** A node the server deletes when the creating session ends (wire flag 1). */
  EPHEMERAL: CreateFlag.EPHEMERAL,
  /** A persistent node whose name gets a 10-digit sequence suffix (wire flag 2). */
  PERSISTENT_SEQUENTIAL: CreateFlag.PERSISTENT_SEQUENTIAL,
  /** An ephemeral node whose name gets a 10-digit sequence suffix (wire flag 3). */
  EPHEMERAL_SEQUENTIAL: CreateFlag.EPHEMERAL_SEQUENTIAL,
} as const;
export type CreateMode = keyof typeof CreateMode;

/** `NO_NODE` for -101; `UNKNOWN(-999)` for a code ZooKeeper 3.8 does not define. */
export function errorCodeName(code: number): string {
  const name = codeName(code);
  return name === 'UNKNOWN' ? `UNKNOWN(${code})` : name;
}
