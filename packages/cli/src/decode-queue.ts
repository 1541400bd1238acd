// Queues: `queue-` nodes (DistributedQueue, data in Curator's envelope) or `qn-` nodes
// (SimpleDistributedQueue, raw bytes). Depth and bytes come from Stats alone; only the oldest
// item's data is read, so inspecting a deep queue stays cheap.
import {
  compareSequenceWrapping,
  isNoNode,
  joinPath,
  sequenceSuffix,
  type FrameworkClient,
} from '@zkrecipes/framework';
import type { InspectionBase, QueueInspection, QueueItemView } from './inspection.js';
import { dataView } from './node-view.js';
import { readChildren, type Znode } from './znode.js';

/** DistributedQueue items. */
export const DISTRIBUTED_QUEUE_PREFIX = 'queue-';
/** SimpleDistributedQueue items. */
export const SIMPLE_QUEUE_PREFIX = 'qn-';
const ENVELOPE_VERSION = 0x00010001;

/** The queue prefix the children use, if any child is an item. */
export function queuePrefix(names: readonly string[]): string | undefined {
  for (const prefix of [DISTRIBUTED_QUEUE_PREFIX, SIMPLE_QUEUE_PREFIX]) {
    if (names.some((name) => sequenceSuffix(name, { prefix }) !== undefined)) return prefix;
  }
  return undefined;
}

/**
 * The items of a DistributedQueue node (`int32 0x00010001`, `(0x01 int32 len bytes)*`, `0x02`),
 * or undefined when the data is not such an envelope (then it is shown raw).
 */
export function decodeEnvelope(data: Buffer): Buffer[] | undefined {
  if (data.length < 5 || data.readInt32BE(0) !== ENVELOPE_VERSION) return undefined;
  const items: Buffer[] = [];
  let at = 4;
  while (at < data.length) {
    const opcode = data.readUInt8(at++);
    if (opcode === 0x02) return items;
    if (opcode !== 0x01 || at + 4 > data.length) return undefined;
    const length = data.readInt32BE(at);
    at += 4;
    if (length < 0 || at + length > data.length) return undefined;
    items.push(data.subarray(at, at + length));
    at += length;
  }
  return undefined;
}

function oldestView(node: Znode, prefix: string, now: number): QueueItemView {
  const data = node.data ?? Buffer.alloc(0);
  const items = prefix === DISTRIBUTED_QUEUE_PREFIX ? decodeEnvelope(data) : undefined;
  return {
    name: node.name,
    ageMs: Math.max(0, now - node.stat.ctime),
    items: items?.length ?? 1,
    // The first item's bytes, so an operator sees what is stuck at the head.
    ...dataView(items?.[0] ?? data),
  };
}

/** Reads and decodes a queue whose children carry `prefix`. */
export async function inspectQueue(
  client: FrameworkClient,
  base: Omit<InspectionBase, 'ignored' | 'recipe'>,
  prefix: string,
  now: number,
): Promise<QueueInspection> {
  const isItem = (name: string): boolean => sequenceSuffix(name, { prefix }) !== undefined;
  const names = await client.getChildren(base.path);
  const nodes = await readChildren(client, base.path, { withData: false, filter: isItem });
  const sorted = nodes
    .map((node) => ({ node, sequence: sequenceSuffix(node.name, { prefix })! }))
    .sort((a, b) => compareSequenceWrapping(a.sequence, b.sequence))
    .map(({ node }) => node);
  let oldest: QueueItemView | undefined;
  // The head may be taken between the listing and the read: try the next one then.
  for (const node of sorted) {
    try {
      const { data, stat } = await client.getData(joinPath(base.path, node.name));
      oldest = oldestView({ name: node.name, stat, data }, prefix, now);
      break;
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
  }
  return {
    ...base,
    kind: 'queue',
    recipe: prefix === DISTRIBUTED_QUEUE_PREFIX ? 'DistributedQueue' : 'SimpleDistributedQueue',
    ignored: names.filter((name) => !isItem(name)),
    depth: sorted.length,
    bytes: sorted.reduce((sum, node) => sum + node.stat.dataLength, 0),
    oldest,
  };
}
