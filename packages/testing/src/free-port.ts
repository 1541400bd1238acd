// Other ZooKeepers run on the same machines, so a fixed port is never safe. The kernel
// hands out an unused port when binding port 0; we close the probe socket and give the
// port to the JVM. Another process can still take it in between, which is why the
// servers retry their start-up on a bind conflict.
import net from 'node:net';

/** Loopback address every harness server and proxy listens on. */
export const LOOPBACK = '127.0.0.1';

/**
 * Returns `count` distinct free TCP ports on 127.0.0.1. All probe sockets stay open until
 * every port is chosen, so the kernel cannot hand the same port out twice.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, LOOPBACK, () => resolve());
      });
    }
    return servers.map((server) => (server.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(
      servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
  }
}

/** One free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error('freePort: no port allocated');
  return port;
}
