// Carries out a fault schedule against the cluster, the proxies and the workers. Each fault
// runs as its own task at its offset; faults on one worker, and ZooKeeper kills, wait for the
// previous one on the same target to heal (two ZooKeepers down at once would lose the quorum
// for the rest of the run). Every fault heals itself; healAll() is the end-of-run sweep.
import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor, type FaultProxy, type TestingCluster } from '@zkrecipes/testing';
import { monoNow } from './clock.js';
import { describeFault, type Fault } from './schedule.js';
import type { ChaosPaths } from './worker-config.js';
import type { WorkerHandle } from './worker-pool.js';

/** How long a restarted worker may take to be ready. */
const READY_TIMEOUT_MS = 30_000;
/** How long a lost reply waits for a matching request before giving up. */
const LOSE_REPLY_WAIT_MS = 5000;

/** FaultProxy.loseReply, being added on another branch: used when this build has it. */
type LoseReply = (options?: {
  ops?: (number | string)[];
  pathPrefix?: string;
  resetAfterMs?: number;
  signal?: AbortSignal;
}) => Promise<{ opCode: number; xid: number; err: number; path: string | undefined }>;

function loseReplyOf(proxy: FaultProxy): LoseReply | undefined {
  const method = (proxy as unknown as { loseReply?: unknown }).loseReply;
  return typeof method === 'function' ? (method as LoseReply).bind(proxy) : undefined;
}

export interface FaultTargets {
  readonly cluster: TestingCluster;
  /** proxies[worker][server] */
  readonly proxies: readonly (readonly FaultProxy[])[];
  readonly workers: readonly WorkerHandle[];
  readonly paths: ChaosPaths;
  /** A line for the console. */
  readonly log: (line: string) => void;
  /** A line for faults.jsonl. */
  readonly record: (entry: object) => void;
}

export class FaultRunner {
  readonly #targets: FaultTargets;
  readonly #chains = new Map<string, Promise<void>>();
  #loseReplyNoted = false;
  /** Faults carried out, and those skipped (a lost reply without loseReply). */
  done = 0;
  skipped = 0;

  constructor(targets: FaultTargets) {
    this.#targets = targets;
  }

  /** Fires each fault at its offset from now; resolves when every one has healed. */
  async run(schedule: readonly Fault[], signal: AbortSignal): Promise<void> {
    const start = monoNow();
    const tasks: Promise<void>[] = [];
    for (const fault of schedule) {
      const wait = start + fault.atMs - monoNow();
      if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) break;
      const key = fault.worker !== undefined ? `worker-${fault.worker}` : 'zk';
      tasks.push(this.#serialized(key, () => this.#execute(fault)));
    }
    await Promise.all(tasks);
  }

  /** Heals every proxy, continues every stopped worker, restarts what is down. */
  async healAll(): Promise<void> {
    const { cluster, proxies, workers } = this.#targets;
    for (const link of proxies.flat()) link.heal();
    for (const worker of workers) worker.sigcont();
    for (const server of cluster.servers) {
      if (!server.running) await cluster.restartServer(server.index);
    }
    await Promise.all(
      workers.filter((worker) => !worker.alive).map((worker) => worker.restart(READY_TIMEOUT_MS)),
    );
  }

  #serialized(key: string, task: () => Promise<void>): Promise<void> {
    const previous = this.#chains.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    this.#chains.set(key, next);
    return next;
  }

  async #execute(fault: Fault): Promise<void> {
    const { record, log } = this.#targets;
    const started = monoNow();
    try {
      const detail = await this.#inject(fault);
      if (detail === 'skipped') {
        this.skipped += 1;
        record({ t: started, n: fault.n, kind: fault.kind, phase: 'skipped', fault });
        return;
      }
      this.done += 1;
      record({
        t: started,
        n: fault.n,
        kind: fault.kind,
        phase: 'done',
        until: monoNow(),
        detail,
        fault,
      });
      log(`fault ${describeFault(fault)}: ${JSON.stringify(detail)}`);
    } catch (error) {
      record({
        t: started,
        n: fault.n,
        kind: fault.kind,
        phase: 'error',
        error: String(error),
        fault,
      });
      log(`fault ${describeFault(fault)} failed: ${String(error)}`);
    }
  }

  /** The proxy of the link `worker` uses now, or of `fallback` when it has none open. */
  #activeLink(worker: number, fallback: number): { server: number; proxy: FaultProxy } {
    const links = this.#targets.proxies[worker] ?? [];
    const open = links.findIndex((link) => link.connectionCount > 0);
    const server = open >= 0 ? open : fallback;
    const proxy = links[server];
    if (proxy === undefined) throw new Error(`no proxy for worker ${worker}, server ${server}`);
    return { server, proxy };
  }

  async #inject(fault: Fault): Promise<object | 'skipped'> {
    const { cluster, workers, proxies, paths } = this.#targets;
    const w = fault.worker ?? 0;
    const worker = workers[w];
    const duration = fault.durationMs ?? 0;
    switch (fault.kind) {
      case 'blackhole-link': {
        const { server, proxy } = this.#activeLink(w, fault.server ?? 0);
        proxy.blackhole();
        await sleep(duration);
        proxy.heal();
        return { server };
      }
      case 'partition-worker': {
        const links = proxies[w] ?? [];
        for (const link of links) link.blackhole();
        await sleep(duration);
        for (const link of links) link.heal();
        return {};
      }
      case 'reset-link': {
        const { server, proxy } = this.#activeLink(w, fault.server ?? 0);
        proxy.drop();
        await sleep(duration);
        proxy.heal();
        return { server };
      }
      case 'lose-reply': {
        const { server, proxy } = this.#activeLink(w, fault.server ?? 0);
        const loseReply = loseReplyOf(proxy);
        if (loseReply === undefined) {
          if (!this.#loseReplyNoted) {
            this.#loseReplyNoted = true;
            this.#targets.log(
              'note: FaultProxy.loseReply is not in this build; lost-reply faults are skipped',
            );
          }
          return 'skipped';
        }
        const prefix =
          fault.target === undefined || fault.target === 'any-write'
            ? undefined
            : paths[fault.target];
        try {
          const lost = await loseReply({
            ...(prefix === undefined ? {} : { pathPrefix: prefix }),
            signal: AbortSignal.timeout(LOSE_REPLY_WAIT_MS),
          });
          return { server, lost };
        } catch (error) {
          return { server, notHit: String(error) };
        }
      }
      case 'sigstop': {
        worker?.sigstop();
        await sleep(duration);
        worker?.sigcont();
        return { pid: worker?.pid };
      }
      case 'sigkill': {
        if (worker === undefined) return {};
        const pid = worker.pid;
        await worker.sigkill();
        await sleep(duration);
        const ready = await worker.restart(READY_TIMEOUT_MS);
        return { pid, incarnation: worker.incarnation, ready };
      }
      case 'kill-zk-leader':
      case 'kill-zk-follower': {
        // waitFor: a member may be electing right now; index 0 is falsy, so wrap it.
        const { leader } = await waitFor(async () => ({ leader: await cluster.findLeader() }), {
          timeoutMs: 15_000,
          message: 'a ZooKeeper leader',
        });
        const followers = [0, 1, 2].filter((index) => index !== leader);
        const victim =
          fault.kind === 'kill-zk-leader' ? leader : (followers[fault.follower ?? 0] ?? 0);
        await cluster.killServer(victim);
        await sleep(duration);
        await cluster.restartServer(victim);
        return { server: victim, leader };
      }
    }
  }
}
