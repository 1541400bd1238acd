import { mntr as readMntr } from '@zkrecipes/testing';

/**
 * `mntr` counters (see @zkrecipes/testing's `mntr`) of the first host of a connect string;
 * empty when the server does not answer or does not allow the word.
 */
export async function mntr(hostPort: string): Promise<Map<string, number>> {
  const [host = '127.0.0.1', port = '2181'] = hostPort.split(',')[0]!.split(':');
  return readMntr(host, Number(port), { timeoutMs: 3000 }).catch(() => new Map<string, number>());
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
