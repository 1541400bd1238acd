// An ensemble that grows and then loses every server its clients were given. Eight clients
// whose connect strings name only the three original members, some under a chroot, some with a
// namespace, keep taking one mutex and contending in one LeaderSelector while two members are
// added (3 -> 5), the three originals are reconfigured out (followers, then the leader) and
// killed (5 -> 2), and one more member is added (2 -> 3). Only the tracked member list can take
// them to the new members: they must end there with their first sessions, never two holders at
// once, the recipes still moving.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import {
  ConnectionState,
  createFramework,
  type FrameworkClient,
  type FrameworkOptions,
} from '@zkrecipes/framework';
import { LeaderSelector } from '@zkrecipes/leader';
import { InterProcessMutex } from '@zkrecipes/locks';
import { fourLetterWord, TestingCluster, timing, waitFor } from '@zkrecipes/testing';

const silent = { error() {}, warn() {}, info() {}, debug() {} };

/** Short sessions: a reconnect that took longer than this would show as LOST. */
const SESSION_TIMEOUT_MS = 6000;

/** The index of the server whose `cons` lists `sessionId`, or -1. */
async function serverOf(cluster: TestingCluster, sessionId: bigint | undefined): Promise<number> {
  const sid = `sid=0x${sessionId?.toString(16)}`;
  for (const server of cluster.servers) {
    if (!server.running) continue;
    const cons = await fourLetterWord(server.host, server.port, 'cons', {
      timeoutMs: timing.ms(2000),
    }).catch(() => '');
    if (cons.includes(sid)) return server.index;
  }
  return -1;
}

/** At most one inside at any instant; counts entries per client. */
class ExclusionWitness {
  #inside = 0;
  readonly violations: string[] = [];
  readonly perClient: number[];
  entries = 0;
  #lastToken: bigint | undefined;

  constructor(clients: number) {
    this.perClient = Array.from({ length: clients }, () => 0);
  }

  enter(client: number, token?: bigint): void {
    this.#inside++;
    if (this.#inside > 1) this.violations.push(`client ${client} entered while another was in`);
    if (token !== undefined) {
      if (this.#lastToken !== undefined && token <= this.#lastToken) {
        this.violations.push(
          `client ${client} got fencing token ${token} after ${this.#lastToken}`,
        );
      }
      this.#lastToken = token;
    }
    this.entries++;
    this.perClient[client]!++;
  }

  exit(): void {
    this.#inside--;
  }
}

/**
 * The clients' views of one absolute lock path (/app/ns/grow-shrink/lock) and election path:
 * a lost chroot or namespace would put a client on another node, and the witnesses would see
 * two holders.
 */
const VIEWS = [
  { chroot: '', namespace: undefined, base: '/app/ns/grow-shrink' },
  { chroot: '', namespace: undefined, base: '/app/ns/grow-shrink' },
  { chroot: '/app', namespace: undefined, base: '/ns/grow-shrink' },
  { chroot: '/app', namespace: 'ns', base: '/grow-shrink' },
  { chroot: '/app/ns', namespace: undefined, base: '/grow-shrink' },
  { chroot: '', namespace: 'app', base: '/ns/grow-shrink' },
  { chroot: '/app', namespace: 'ns', base: '/grow-shrink' },
  { chroot: '', namespace: 'app/ns', base: '/grow-shrink' },
] as const;

describe('an ensemble that grows and loses all its original members', () => {
  let cluster: TestingCluster;
  const clients: FrameworkClient[] = [];
  const selectors: LeaderSelector[] = [];
  const stop = new AbortController();
  const loops: Promise<void>[] = [];

  before(async () => {
    cluster = await TestingCluster.start({ size: 3, reconfigEnabled: true });
  });
  after(async () => {
    stop.abort();
    await Promise.allSettled(loops);
    await Promise.allSettled(selectors.map((selector) => selector.close()));
    await Promise.allSettled(clients.map((client) => client.close()));
    await cluster.close();
  });

  it('3 -> 5 -> 2 -> 3 members: 8 clients of the original three follow to the new members, same sessions, one lock holder and one leader at a time, chroots kept', async () => {
    const t0 = performance.now();
    const phase: Record<string, number> = {};
    const mark = (name: string) => (phase[name] = Math.round(performance.now() - t0));
    const originals = cluster.servers.map((server) => server.index);
    const original = cluster.connectString;
    const open = async (connectString: string, options: Partial<FrameworkOptions> = {}) => {
      const client = createFramework({
        connectString,
        sessionTimeoutMs: SESSION_TIMEOUT_MS,
        logger: silent,
        ...options,
      });
      clients.push(client);
      await client.start({ timeoutMs: timing.ms(10_000) });
      return client;
    };
    for (const view of VIEWS) {
      const client = await open(`${original}${view.chroot}`, {
        ...(view.namespace === undefined ? {} : { namespace: view.namespace }),
      });
      if (clients.length === 1) await client.create('/app/ns', { createParents: true });
    }
    const sessions = clients.map((client) => client.sessionId);
    const states: ConnectionState[][] = clients.map(() => []);
    clients.forEach((client, i) => client.on('stateChanged', (state) => states[i]!.push(state)));
    const unhandled: string[] = [];
    for (const client of clients) {
      client.unhandledErrors.subscribe({
        next: ({ context, error }) => unhandled.push(`${context}: ${String(error)}`),
      });
    }
    mark('clients');

    // The recipes, running all along.
    const lock = new ExclusionWitness(clients.length);
    const leader = new ExclusionWitness(clients.length);
    const lockErrors: string[] = [];
    clients.forEach((client, i) => {
      const { base } = VIEWS[i]!;
      const mutex = new InterProcessMutex(client, `${base}/lock`);
      loops.push(
        (async () => {
          while (!stop.signal.aborted) {
            try {
              const hold = await mutex.acquireHold(undefined, { signal: stop.signal });
              lock.enter(i, hold.fencingToken);
              await delay(3);
              lock.exit();
              await mutex.release();
            } catch (error) {
              if (stop.signal.aborted) break;
              lockErrors.push(`client ${i}: ${String(error)}`);
              if (mutex.isAcquiredInThisProcess()) await mutex.release().catch(() => undefined);
              await delay(100);
            }
          }
        })(),
      );
      const selector = new LeaderSelector(
        client,
        `${base}/leader`,
        async (signal) => {
          leader.enter(i);
          try {
            await delay(10, undefined, { signal }).catch(() => undefined);
          } finally {
            leader.exit();
          }
        },
        { id: `client-${i}`, autoRequeue: true },
      );
      selectors.push(selector);
    });
    await Promise.all(selectors.map((selector) => selector.start()));
    const everyone = (witness: ExclusionWitness, since: readonly number[]) =>
      witness.perClient.every((count, i) => count > since[i]!);
    const zero = clients.map(() => 0);
    await waitFor(() => everyone(lock, zero) && everyone(leader, zero), {
      timeoutMs: 20_000,
      message: 'every client took the lock and led once',
    });
    mark('recipes running');

    /** Waits until every client's next attempts go to `servers` (its chroot kept). */
    const viewsFollow = async (servers: readonly number[], what: string) => {
      const expected = servers.map((index) => cluster.servers[index]!.connectString).sort();
      await waitFor(
        () =>
          clients.every((client, i) => {
            const { chroot } = VIEWS[i]!;
            const list = client.connectString;
            if (!list.endsWith(chroot)) return false;
            const hosts = list.slice(0, list.length - chroot.length).split(',');
            return hosts.sort().join() === expected.join();
          }),
        {
          timeoutMs: 20_000,
          message: `every client's list is ${what} (${expected.join()})`,
        },
      );
    };
    await viewsFollow(originals, 'the three original members');

    // Grow: 3 -> 5.
    const addedA = await cluster.addServer();
    mark('4th member in');
    const addedB = await cluster.addServer();
    mark('5th member in');
    const added = [addedA.index, addedB.index];
    await viewsFollow([...originals, ...added], 'the five members');
    mark('views of five');
    const atGrown = { lock: lock.entries, leader: leader.entries };

    // Shrink: the original followers out, then the original leader (every connection drops).
    const leaderIndex = await cluster.findLeader();
    const followers = originals.filter((index) => index !== leaderIndex);
    await cluster.reconfigure({ leaving: followers.map((index) => cluster.servers[index]!.id) });
    mark('original followers out');
    if (originals.includes(leaderIndex)) await cluster.removeServer(leaderIndex);
    mark('original leader out');
    await viewsFollow(added, 'the two new members');
    mark('views of two');
    await Promise.all(originals.map((index) => cluster.killServer(index)));
    mark('originals killed');

    // Every client is back, on a new member, with its first session.
    await waitFor(
      async () => {
        for (const client of clients) {
          if (!client.isReady()) return false;
          if (!added.includes(await serverOf(cluster, client.sessionId))) return false;
        }
        return true;
      },
      { timeoutMs: 30_000, message: 'every client connected to one of the new members' },
    );
    mark('all on new members');
    const onNewMembers = { lock: lock.entries, leader: leader.entries };

    // Grow again, 2 -> 3: a member none of them ever knew.
    const addedC = await cluster.addServer();
    mark('6th member in');
    const final = [...added, addedC.index];
    await viewsFollow(final, 'the three new members');
    mark('views of the last three');
    const atShrunk = { lock: [...lock.perClient], leader: [...leader.perClient] };
    const totals = { lock: lock.entries, leader: leader.entries };

    // The recipes go on: every client takes the lock and leads again.
    await waitFor(() => everyone(lock, atShrunk.lock) && everyone(leader, atShrunk.leader), {
      timeoutMs: 30_000,
      message: `every client takes the lock and leads after the shrink (lock ${lock.perClient.join()}, leader ${leader.perClient.join()})`,
    });
    mark('recipes after shrink');

    for (const [i, client] of clients.entries()) {
      assert.ok(
        client.connectionState === ConnectionState.CONNECTED ||
          client.connectionState === ConnectionState.RECONNECTED,
        `client ${i} is ${client.connectionState}`,
      );
      assert.equal(client.health().lostCount, 0, `client ${i} lost its session`);
      assert.ok(client.connectString.endsWith(VIEWS[i]!.chroot));
    }
    assert.deepEqual(
      clients.map((client) => client.sessionId),
      sessions,
    );
    assert.ok(!states.flat().includes(ConnectionState.LOST), `states: ${JSON.stringify(states)}`);
    assert.ok(
      states.every((seen) => seen.includes(ConnectionState.RECONNECTED)),
      'every client reconnected at least once (the leader removal drops every connection)',
    );
    for (const [i, client] of clients.entries()) {
      const server = await serverOf(cluster, client.sessionId);
      assert.ok(final.includes(server), `client ${i} is on server ${server}`);
    }
    assert.deepEqual(lock.violations, []);
    assert.deepEqual(leader.violations, []);
    assert.ok(lock.entries > totals.lock && leader.entries > totals.leader);

    stop.abort();
    await Promise.all(loops);
    await Promise.all(selectors.map((selector) => selector.close()));
    // Everything the recipes made is gone: nobody holds, nobody waits. An acquire aborted while
    // its create was out leaves its node to the client's background delete, and clients[0]'s
    // server may lag the others' deletes: gone within a few seconds, not at this instant.
    for (const path of ['/app/ns/grow-shrink/lock', '/app/ns/grow-shrink/leader']) {
      await waitFor(async () => (await clients[0]!.getChildren(path)).length === 0, {
        timeoutMs: 10_000,
        message: `nothing left under ${path}`,
      });
    }

    const suspended = clients.map((client) => client.health().suspendedCount);
    console.log(
      `# phases (ms from start): ${JSON.stringify(phase)}; lock hand-overs ${lock.entries} ` +
        `(${atGrown.lock} before the shrink, ${onNewMembers.lock} until all were on new members, ` +
        `${totals.lock} until the last grow), leaderships ${leader.entries} ` +
        `(${atGrown.leader}, ${onNewMembers.leader}, ${totals.leader}); ` +
        `SUSPENDED per client ${suspended.join()}; lock loop errors ${lockErrors.length}; ` +
        `unhandled ${unhandled.length}`,
    );
    if (lockErrors.length > 0) console.log(`# lock loop errors: ${lockErrors.join(' | ')}`);
    if (unhandled.length > 0) console.log(`# unhandled: ${unhandled.join(' | ')}`);
  });
});
