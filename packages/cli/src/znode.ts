// Reading a recipe's nodes: one child at a time may vanish between the listing and the read
// (a lock released, an item taken), which is the normal life of a recipe, not an error.
import { isNoNode, joinPath, type FrameworkClient, type Stat } from '@zkrecipes/framework';
import { boundedMap } from './bounded-map.js';

/** Reads in flight at most per listing (the design's bounded fan-out). */
export const READ_CONCURRENCY = 32;

/** A child as read: its name, its Stat and, when asked for, its data. */
export interface Znode {
  readonly name: string;
  readonly stat: Stat;
  /** Undefined when the listing was read without data. */
  readonly data: Buffer | undefined;
}

/** Options of {@link readChildren}. */
export interface ReadChildrenOptions {
  /** Read each child's data too (one getData instead of one exists). Default: true. */
  readonly withData?: boolean;
  /** Only these names are read; default: every child. */
  readonly filter?: (name: string) => boolean;
}

/**
 * The children of `path` with their Stat (and data), in listing order, leaving out those that
 * disappeared before they could be read. Throws NoNodeError when `path` itself is missing.
 */
export async function readChildren(
  client: FrameworkClient,
  path: string,
  options: ReadChildrenOptions = {},
): Promise<Znode[]> {
  const names = (await client.getChildren(path)).filter(options.filter ?? (() => true));
  const withData = options.withData ?? true;
  const read = await boundedMap(names, READ_CONCURRENCY, async (name) => {
    const child = joinPath(path, name);
    try {
      if (withData) {
        const { data, stat } = await client.getData(child);
        return { name, stat, data };
      }
      const stat = await client.exists(child);
      return stat === null ? undefined : { name, stat, data: undefined };
    } catch (error) {
      if (isNoNode(error)) return undefined;
      throw error;
    }
  });
  return read.filter((node): node is Znode => node !== undefined);
}

/** Like {@link readChildren}, but an absent `path` is an empty list (optional sub-nodes). */
export async function readChildrenIfAny(
  client: FrameworkClient,
  path: string,
  options: ReadChildrenOptions = {},
): Promise<Znode[]> {
  try {
    return await readChildren(client, path, options);
  } catch (error) {
    if (isNoNode(error)) return [];
    throw error;
  }
}
