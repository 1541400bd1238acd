// A group round: members join, leave and re-join under the same ids on separate sessions;
// once the churn stops, every live member's view must equal the group on the server.
import type { FrameworkClient } from '@zkrecipes/framework';
import { GroupMember } from '@zkrecipes/group';
import { settlesWithin } from './stress-clients.js';

export interface GroupRoundResult {
  readonly members: number;
  /** Live members whose view still differed from the server's group after the settle time. */
  readonly inconsistentViews: number;
}

function sameIds(view: ReadonlyMap<string, unknown>, ids: readonly string[]): boolean {
  return view.size === ids.length && ids.every((id) => view.has(id));
}

export async function groupViewsRound(
  clients: readonly FrameworkClient[],
  path: string,
  churnSteps: number,
  settleMs: number,
): Promise<GroupRoundResult> {
  const live = new Map<number, GroupMember>();
  const join = async (i: number): Promise<void> => {
    const member = new GroupMember(clients[i]!, path, `member-${i}`, Buffer.from(`payload-${i}`));
    live.set(i, member);
    await member.start();
  };
  try {
    await Promise.all(clients.map((_, i) => join(i)));
    // Leave and re-join in overlapping waves, without waiting for the views in between.
    let seed = 12345;
    for (let step = 0; step < churnSteps; step++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const i = seed % clients.length;
      const member = live.get(i);
      if (member === undefined) {
        await join(i);
      } else {
        live.delete(i);
        await member.close();
      }
      if (step % 4 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    for (const member of live.values()) {
      if (!(await member.waitForInitialCreate({ timeoutMs: settleMs }))) {
        throw new Error('a member node was never created');
      }
    }
    const expected = [...live.keys()].map((i) => `member-${i}`);
    const onServer = (await clients[0]!.getChildren(path)).sort();
    if (!sameIds(new Map(onServer.map((id) => [id, undefined])), expected)) {
      throw new Error(`the server's group ${onServer.join(',')} is not ${expected.join(',')}`);
    }
    const consistent = (member: GroupMember): boolean =>
      sameIds(member.getCurrentMembers(), expected);
    await settlesWithin(() => [...live.values()].every(consistent), settleMs);
    const inconsistentViews = [...live.values()].filter((member) => !consistent(member)).length;
    return { members: live.size, inconsistentViews };
  } finally {
    await Promise.all([...live.values()].map((member) => member.close()));
  }
}
