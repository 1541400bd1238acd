// Curator's protected mode (ProtectedUtils): a create whose reply may be lost tags the node name
// with a UUID, so after CONNECTION_LOSS the client can find the node it did create by listing
// the parent. The bytes must match Curator's, `_c_` + UUID + `-` + name, so that a Java Curator
// client and ours recognise each other's nodes.
import { InvalidArgumentError } from '../errors/zookeeper-error-classes.js';

/** The first characters of every protected node name. */
export const PROTECTED_PREFIX = '_c_';

const SEPARATOR = '-';
const UUID_LENGTH = 36;
/** `_c_` + 36-character UUID + `-`: 40 characters before the node's own name. */
const PROTECTED_PREFIX_WITH_UUID_LENGTH = PROTECTED_PREFIX.length + UUID_LENGTH + 1;
// The canonical textual form, as crypto.randomUUID() and Java's UUID.toString() write it.
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkUuid(uuid: string): void {
  if (!UUID_PATTERN.test(uuid)) {
    throw new InvalidArgumentError(
      `protected-mode id must be a canonical UUID (36 characters, as crypto.randomUUID() ` +
        `returns); got ${JSON.stringify(uuid)}`,
    );
  }
}

/**
 * `'_c_' + uuid + '-' + name` for a UUID that is canonical by construction (our own
 * `crypto.randomUUID()`): the protected create's own path, without checking the id again.
 */
export function protectedNameOfOwnId(uuid: string, name: string): string {
  return `${PROTECTED_PREFIX}${uuid}${SEPARATOR}${name}`;
}

/** `'_c_' + uuid + '-'`, the prefix a protected create puts before the node name. */
export function protectedPrefix(uuid: string): string {
  checkUuid(uuid);
  return protectedNameOfOwnId(uuid, '');
}

/**
 * The protected form of a node name:
 * `protectedNodeName('53345f98-9423-4e0c-a7b5-9f819e3ec2e1', 'lock-')` is
 * `'_c_53345f98-9423-4e0c-a7b5-9f819e3ec2e1-lock-'`. Generate the id once per create with
 * `crypto.randomUUID()` and keep it across retries.
 */
export function protectedNodeName(uuid: string, name: string): string {
  checkUuid(uuid);
  return protectedNameOfOwnId(uuid, name);
}

/**
 * The child a protected create with this id made, if the parent lists one: the first name that
 * starts with {@link protectedPrefix}(uuid). `undefined` when there is none.
 */
export function findProtectedNode(children: readonly string[], uuid: string): string | undefined {
  const prefix = protectedPrefix(uuid);
  return children.find((child) => child.startsWith(prefix));
}

/**
 * Whether a node name is in protected form: `_c_`, a UUID, `-`, then at least one character
 * (Curator's `isProtectedZNode`, which also requires the name after the prefix to be non-empty).
 */
export function isProtectedName(name: string): boolean {
  return (
    name.length > PROTECTED_PREFIX_WITH_UUID_LENGTH &&
    name.startsWith(PROTECTED_PREFIX) &&
    name.charAt(PROTECTED_PREFIX_WITH_UUID_LENGTH - 1) === SEPARATOR &&
    UUID_PATTERN.test(name.slice(PROTECTED_PREFIX.length, PROTECTED_PREFIX_WITH_UUID_LENGTH - 1))
  );
}

/**
 * The name without its protected prefix (Curator's `ProtectedUtils.normalize`):
 * `'_c_<uuid>-lock-0000000003'` gives `'lock-0000000003'`; any other name comes back unchanged.
 */
export function stripProtectedPrefix(name: string): string {
  return isProtectedName(name) ? name.slice(PROTECTED_PREFIX_WITH_UUID_LENGTH) : name;
}
