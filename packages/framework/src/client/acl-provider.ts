import type { AclProvider } from './client-context.js';
import { OPEN_ACL_UNSAFE } from '../zk/zookeeper-types.js';
import type { Acl } from '../zk/zookeeper-types.js';

/**
 * The ACL provider used when `createFramework` is given none: every node gets
 * `world:anyone` with all permissions (ZooKeeper's OPEN_ACL_UNSAFE), like Curator's
 * `DefaultACLProvider`.
 */
export const defaultAclProvider: AclProvider = {
  defaultAcl: () => OPEN_ACL_UNSAFE,
};

/**
 * Builds an {@link AclProvider} from a fixed ACL or from a function of the full server path
 * (namespace applied). A function that returns `undefined` falls back to OPEN_ACL_UNSAFE.
 *
 * ```ts
 * createFramework({ connectString, aclProvider: aclProviderFrom(CREATOR_ALL_ACL) });
 * createFramework({ connectString, aclProvider: aclProviderFrom((path) =>
 *   path.startsWith('/app/secret') ? restrictedAcl : undefined) });
 * ```
 */
export function aclProviderFrom(
  aclOrFn: readonly Acl[] | ((path: string) => readonly Acl[] | undefined),
): AclProvider {
  if (typeof aclOrFn === 'function') {
    return { aclForPath: aclOrFn, defaultAcl: () => OPEN_ACL_UNSAFE };
  }
  // Copy so a caller mutating its array later cannot change what new nodes get.
  const fixed: readonly Acl[] = [...aclOrFn];
  return { defaultAcl: () => fixed };
}

/**
 * The ACL a create of `serverPath` uses: the caller's explicit `acl` wins, then the provider's
 * per-path answer, then its default. Parents made by `createParents` go through here too, so
 * they get the provider's ACL and never the leaf's explicit one (Curator does the same).
 */
export function resolveAcl(
  provider: AclProvider,
  serverPath: string,
  explicit?: readonly Acl[],
): readonly Acl[] {
  return explicit ?? provider.aclForPath?.(serverPath) ?? provider.defaultAcl();
}
