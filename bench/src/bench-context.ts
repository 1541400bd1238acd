import {
  createFramework,
  ExponentialBackoffRetry,
  type FrameworkClient,
  type Logger,
  type TlsOptions,
} from '@zkrecipes/framework';

/** The peer's settings: every client is its own session with these. */
export const SESSION_TIMEOUT_MS = 10_000;
export const CONNECTION_TIMEOUT_MS = 5_000;
/** Limit for any blocking wait; a healthy run never reaches it. */
export const HANG_GUARD_MS = 60_000;

/** What a scenario gets: its path, sizes, and clients that are closed after it. */
export class BenchContext {
  readonly connectString: string;
  readonly quick: boolean;
  readonly logger: Logger;
  readonly #clients: FrameworkClient[] = [];

  readonly #tls: TlsOptions | undefined;

  /** `tls`: every client connects with these TLS options (the `--tls` runs). */
  constructor(connectString: string, quick: boolean, logger: Logger, tls?: TlsOptions) {
    this.connectString = connectString;
    this.quick = quick;
    this.logger = logger;
    this.#tls = tls;
  }

  /** `full` or, with --quick, `quick`. */
  size(full: number, quick: number): number {
    return this.quick ? quick : full;
  }

  /** A new connected client (own session); creation and connection are never timed. */
  async newClient(): Promise<FrameworkClient> {
    const client = createFramework({
      connectString: this.connectString,
      sessionTimeoutMs: SESSION_TIMEOUT_MS,
      connectionTimeoutMs: CONNECTION_TIMEOUT_MS,
      retryPolicy: new ExponentialBackoffRetry({ baseSleepMs: 100, maxRetries: 3 }),
      logger: this.logger,
      tls: this.#tls,
    });
    this.#clients.push(client);
    await client.start();
    if (!(await client.blockUntilConnected({ timeoutMs: HANG_GUARD_MS }))) {
      throw new Error(`could not connect to ${this.connectString}`);
    }
    return client;
  }

  /** `count` clients, connected in parallel. */
  newClients(count: number): Promise<FrameworkClient[]> {
    return Promise.all(Array.from({ length: count }, () => this.newClient()));
  }

  /** Closes every client this scenario made (already-closed ones are skipped). */
  async closeClients(): Promise<void> {
    const clients = this.#clients.splice(0);
    await Promise.all(clients.map((client) => client.close()));
  }
}

/** Rejects with a clear error when `promise` outlasts the hang guard. */
export async function hangGuard<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not finish within ${HANG_GUARD_MS} ms`)),
      HANG_GUARD_MS,
    );
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** Milliseconds since `startMs` on the monotonic clock. */
export function since(startMs: number): number {
  return performance.now() - startMs;
}
