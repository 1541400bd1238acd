// ZooKeeper's four-letter words (`ruok`, `srvr`, `dump`, `cons`, ...) are the server's own
// view of itself, independent of any client library: the harness uses them to see when a
// server is up, who leads a quorum, and whether a session is really gone.
import net from 'node:net';

/** Options of {@link fourLetterWord}. */
export interface FourLetterWordOptions {
  /** Deadline for connect + reply. Not scaled: callers pass scaled values. Default 5000. */
  timeoutMs?: number;
}

/** Rejection of `fourLetterWord` when the deadline passes; `code` is 'TIMEOUT'. */
export class FourLetterWordTimeoutError extends Error {
  /** Always `'TIMEOUT'`. */
  readonly code = 'TIMEOUT';
  /** Always `'FourLetterWordTimeoutError'`, so logs and `err.name` checks tell this error apart. */
  override readonly name = 'FourLetterWordTimeoutError';
}

/**
 * Sends a four-letter word and resolves with the full reply (the server closes the
 * connection when it is done). Rejects on connection errors and after `timeoutMs`:
 * a server that is still starting can accept a connection and never answer, so the
 * deadline is not optional.
 */
export function fourLetterWord(
  host: string,
  port: number,
  cmd: string,
  options: FourLetterWordOptions = {},
): Promise<string> {
  const { timeoutMs = 5000 } = options;
  if (!/^[a-z]{4}$/.test(cmd)) {
    return Promise.reject(
      new Error(`fourLetterWord: not a four-letter word: ${JSON.stringify(cmd)}`),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      finish(
        new FourLetterWordTimeoutError(`${cmd} to ${host}:${port}: no reply in ${timeoutMs} ms`),
      );
    }, timeoutMs);
    function finish(error?: Error): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    }
    // write, not end: a half-close can make the server drop the connection before replying.
    socket.on('connect', () => socket.write(cmd));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish());
    socket.on('error', (error) => finish(error));
    socket.on('close', () => finish());
  });
}

/**
 * The server's `mntr` counters as numbers, keyed without the `zk_` prefix
 * (`packets_received`, `znode_count`, ...). Non-numeric lines are left out.
 */
export async function mntr(
  host: string,
  port: number,
  options: FourLetterWordOptions = {},
): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  for (const line of (await fourLetterWord(host, port, 'mntr', options)).split('\n')) {
    const [key, value] = line.split('\t');
    if (key?.startsWith('zk_') && value !== undefined && !Number.isNaN(Number(value))) {
      values.set(key.slice(3), Number(value));
    }
  }
  return values;
}
