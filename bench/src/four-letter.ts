import { connect } from 'node:net';

/** Sends a ZooKeeper four-letter word (e.g. `mntr`) and resolves the reply ('' on failure). */
export function fourLetter(hostPort: string, word: string): Promise<string> {
  const [host = '127.0.0.1', port = '2181'] = hostPort.split(',')[0]!.split(':');
  return new Promise((resolve) => {
    let reply = '';
    const socket = connect({ host, port: Number(port) }, () => socket.end(word));
    socket.setTimeout(3000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => (reply += chunk.toString('utf8')));
    socket.on('error', () => resolve(''));
    socket.on('close', () => resolve(reply));
  });
}

/** `mntr` as numbers by key (without the `zk_` prefix); empty when the word is not allowed. */
export async function mntr(hostPort: string): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  for (const line of (await fourLetter(hostPort, 'mntr')).split('\n')) {
    const [key, value] = line.split('\t');
    if (key?.startsWith('zk_') && value !== undefined && !Number.isNaN(Number(value))) {
      values.set(key.slice(3), Number(value));
    }
  }
  return values;
}

/** Watch notifications the server sent (sum over event kinds) and packets it received. */
export function serverCounters(
  values: ReadonlyMap<string, number>,
): { notifications: number | undefined; packets: number } | undefined {
  if (!values.has('packets_received')) return undefined;
  const kinds = ['node_created', 'node_deleted', 'node_changed', 'node_children'];
  const notifications = kinds.reduce(
    (sum, kind) => sum + (values.get(`${kind}_watch_count_sum`) ?? 0),
    0,
  );
  return { notifications, packets: values.get('packets_received') ?? 0 };
}
