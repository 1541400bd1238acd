// One worker of set-partitioner-workers.test.ts, as a child process: a SetPartitioner member
// that, for each partition it owns, writes `{ owner, token }` to `<path>/data/<partition>`
// through the partition's hold (a guarded transaction), right after ACQUIRED and then every
// WRITE_INTERVAL_MS, and tells the runner over IPC about each state and each write that landed.
import { createFramework, op, RetryNTimes, silentLogger } from '@zkrecipes/framework';
import { SetPartitioner, SetPartitionerState } from '@zkrecipes/group';

export interface PartitionWorkerConfig {
  readonly connectString: string;
  readonly path: string;
  readonly partitions: readonly string[];
  readonly identifier: string;
  readonly sessionTimeoutMs: number;
  readonly timeBoundaryMs: number;
}

/** Worker to runner. */
export type PartitionWorkerMessage =
  | { readonly type: 'ready' }
  | {
      readonly type: 'state';
      readonly state: SetPartitionerState;
      readonly partitions: readonly string[];
      readonly at: number;
    }
  | {
      readonly type: 'write';
      readonly partition: string;
      readonly token: string;
      /** The data node's mzxid after the write: the order the server applied the writes in. */
      readonly mzxid: string;
      readonly at: number;
    }
  | { readonly type: 'refused'; readonly partition: string };

const WRITE_INTERVAL_MS = 250;

async function main(config: PartitionWorkerConfig): Promise<void> {
  const send = (message: PartitionWorkerMessage): void => {
    if (process.connected) process.send!(message);
  };
  // The runner gone (its end of the IPC channel closed): nothing to report to, leave.
  process.on('disconnect', () => process.exit(0));
  const client = createFramework({
    connectString: config.connectString,
    sessionTimeoutMs: config.sessionTimeoutMs,
    retryPolicy: new RetryNTimes({ n: 30, sleepBetweenRetriesMs: 100 }),
    logger: silentLogger,
  });
  await client.start({ timeoutMs: 10_000 });
  const partitioner = new SetPartitioner(client, config.path, {
    partitions: config.partitions,
    identifier: config.identifier,
    timeBoundaryMs: config.timeBoundaryMs,
  });
  let round = 0;
  const writeAll = async (mine: number): Promise<void> => {
    await Promise.all(
      partitioner.partitions.map(async (partition) => {
        const hold = partitioner.holdOf(partition);
        if (hold === undefined || round !== mine) return;
        const data = JSON.stringify({ owner: config.identifier, token: hold.fencingTokenString });
        try {
          const [result] = await hold.transaction([
            op.setData(`${config.path}/data/${partition}`, Buffer.from(data)),
          ]);
          const mzxid = result?.type === 'setData' ? result.stat.mzxid.toString() : '';
          send({ type: 'write', partition, token: hold.fencingTokenString, mzxid, at: Date.now() });
        } catch {
          send({ type: 'refused', partition });
        }
      }),
    );
  };
  partitioner.states.subscribe((state) => {
    round++;
    send({ type: 'state', state, partitions: partitioner.partitions, at: Date.now() });
    if (state === SetPartitionerState.ACQUIRED) {
      const mine = round;
      void (async () => {
        while (round === mine) {
          await writeAll(mine);
          await new Promise((resolve) => setTimeout(resolve, WRITE_INTERVAL_MS));
        }
      })();
    } else if (state === SetPartitionerState.RELEASE) {
      void partitioner.releaseSet();
    }
  });
  await partitioner.start();
  send({ type: 'ready' });
}

await main(JSON.parse(process.argv[2]!) as PartitionWorkerConfig);
