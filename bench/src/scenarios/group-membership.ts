import { GroupMember } from '@zkrecipes/group';
import { HANG_GUARD_MS } from '../bench-context.js';
import { resultFromSamples } from '../result-line.js';
import { formatMs, Samples } from '../samples.js';
import type { Scenario } from '../scenario.js';
import { deferred, utf8 } from '../sync.js';

const OBSERVER_ID = 'observer';

function ids(from: number, to: number): Set<string> {
  return new Set(Array.from({ length: to - from }, (_, i) => `m${from + i}`));
}

/**
 * Resolves with the time at which `viewer`'s pushed view (its `members` stream, no polling),
 * ignoring the observer, equals `expected`.
 */
function awaitView(viewer: GroupMember, expected: ReadonlySet<string>): Promise<number> {
  const done = deferred<number>();
  let last: string[] = [];
  const subscription = viewer.members.subscribe((view) => {
    const now = performance.now();
    const keys = [...view.keys()].filter((id) => id !== OBSERVER_ID);
    last = keys;
    if (keys.length === expected.size && keys.every((id) => expected.has(id))) done.resolve(now);
  });
  const timer = setTimeout(() => {
    subscription.unsubscribe();
    done.resolve(Number.NaN);
  }, HANG_GUARD_MS);
  return done.promise.then((at) => {
    clearTimeout(timer);
    subscription.unsubscribe();
    if (Number.isNaN(at)) {
      throw new Error(
        `group view [${last.sort().join(', ')}], expected [${[...expected].sort().join(', ')}]`,
      );
    }
    return at;
  });
}

/**
 * 9. 20 member clients join a group; an observer (a GroupMember on its own client) must see
 * all 20; then 10 leave and the observer must see exactly the other 10.
 */
export const groupMembership: Scenario = {
  name: 'group.membership',
  emits: ['group.membership', 'group.membership.leave'],
  async run(context, path) {
    const joiners = 20;
    const leavers = 10;
    const rounds = context.size(10, 3);
    const warmupRounds = 1;
    const groupPath = `${path}/group`;
    const observer = new GroupMember(
      await context.newClient(),
      groupPath,
      OBSERVER_ID,
      utf8(OBSERVER_ID),
    );
    const clients = await context.newClients(joiners);
    const everyone = ids(0, joiners);
    const stayers = ids(leavers, joiners);

    const join = new Samples();
    const leave = new Samples();
    const leaveIssue = new Samples();
    await observer.start();
    try {
      for (let r = 0; r < warmupRounds + rounds; r += 1) {
        const members = clients.map(
          (client, i) => new GroupMember(client, groupPath, `m${i}`, utf8(`m${i}`)),
        );
        const joined = awaitView(observer, everyone);
        const joinStart = performance.now();
        // start() is asynchronous (the node is created in the background): issue all 20 back to back
        const started = members.map((member) => member.start());
        const joinedAt = await joined;
        await Promise.all(started);
        for (const member of members) await awaitView(member, everyone); // members settle (untimed)

        const left = awaitView(observer, stayers);
        const leaveStart = performance.now();
        for (let i = 0; i < leavers; i += 1) await members[i]!.close(); // deletes the member's node
        const issued = performance.now() - leaveStart;
        const leftAt = await left;

        for (let i = leavers; i < joiners; i += 1) await members[i]!.close();
        await awaitView(observer, new Set()); // reset for the next round (untimed)
        if (r >= warmupRounds) {
          join.add(joinedAt - joinStart);
          leave.add(leftAt - leaveStart);
          leaveIssue.add(issued);
        }
      }
    } finally {
      await observer.close();
    }
    const common =
      `${joiners} member clients + 1 observer client (a GroupMember whose members stream pushes each ` +
      `new view: no polling, so no 0.5 ms poll resolution); n = rounds, warmup=${warmupRounds} round; `;
    return [
      resultFromSamples(
        'group.membership',
        join,
        undefined,
        `${common}sample = from the first of ${joiners} GroupMember.start() calls until the observer's ` +
          `members view shows all ${joiners}`,
      ),
      resultFromSamples(
        'group.membership.leave',
        leave,
        undefined,
        `${common}leave phase starts once every member's own view shows all ${joiners}; sample = from the ` +
          `first of ${leavers} sequential GroupMember.close() calls (member leaves; its client stays ` +
          `open) until the observer shows exactly the ${joiners - leavers} remaining; ` +
          `close_calls_p50_ms=${formatMs(leaveIssue.percentile(50))}`,
      ),
    ];
  },
};
