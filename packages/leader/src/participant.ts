// Who takes part in an election, read the way Curator's LeaderSelector.getParticipants reads
// it: the participant nodes in election order, each one's data as its id (UTF-8); the first
// node that still exists is the leader. A node that vanishes between the listing and its read
// has left and is skipped. Every read takes the caller's signal: aborting rejects the query with
// its reason at once, whatever the connection does.
import pLimit from 'p-limit';
import { isNoNode, joinPath, type FrameworkClient } from '@zkrecipes/framework';
import { sortParticipants } from '@zkrecipes/locks';

/** One participant of an election (Curator's `Participant`). */
export interface Participant {
  /** The id the participant registered with (its node's data as UTF-8; may be empty). */
  readonly id: string;
  /** True for the one participant that leads (the first in line). */
  readonly isLeader: boolean;
}

/** The node name Curator's LeaderLatch uses, before the sequence. */
export const LATCH_NODE_NAME = 'latch-';

/** The default number of participant reads in flight at once. */
export const DEFAULT_PARTICIPANT_READ_CONCURRENCY = 16;

async function readId(
  client: FrameworkClient,
  path: string,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  try {
    return (await client.getData(path, { signal })).data.toString('utf8');
  } catch (error) {
    if (isNoNode(error)) return undefined;
    throw error;
  }
}

/**
 * The participants behind `paths` (full node paths in election order), reading at most
 * `concurrency` nodes at once. The first one still there is marked leader. Every read is given
 * `signal`.
 */
export async function readParticipants(
  client: FrameworkClient,
  paths: readonly string[],
  concurrency: number,
  signal: AbortSignal | undefined,
): Promise<Participant[]> {
  const limit = pLimit(concurrency);
  const ids = await Promise.all(paths.map((path) => limit(() => readId(client, path, signal))));
  const participants: Participant[] = [];
  for (const id of ids) {
    if (id !== undefined) participants.push({ id, isLeader: participants.length === 0 });
  }
  return participants;
}

/**
 * The leader among `paths`: the first node that still exists, read one by one (usually a
 * single read), each given `signal`. Undefined when nobody takes part.
 */
export async function readLeader(
  client: FrameworkClient,
  paths: readonly string[],
  signal: AbortSignal | undefined,
): Promise<Participant | undefined> {
  for (const path of paths) {
    const id = await readId(client, path, signal);
    if (id !== undefined) return { id, isLeader: true };
  }
  return undefined;
}

/**
 * A LeaderLatch's participant nodes (full paths) in line order; none when the path is gone. The
 * read is given `signal`.
 */
export async function latchParticipantPaths(
  client: FrameworkClient,
  path: string,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  let children: string[];
  try {
    children = await client.getChildren(path, { signal });
  } catch (error) {
    if (isNoNode(error)) return [];
    throw error;
  }
  return sortParticipants(children, [LATCH_NODE_NAME]).map((name) => joinPath(path, name));
}
