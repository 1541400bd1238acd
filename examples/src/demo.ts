/**
 * `npm run demo`: a throwaway ZooKeeper (or `--connect HOST:PORT`), one client, and the
 * connection states it goes through while the server is restarted and the session is killed.
 * Grows into the worker-pool demo once the recipes exist.
 */
import { createFramework, ConnectionState, type FrameworkClient } from '@zkrecipes/framework';
import { killSession, TestingServer, waitFor } from '@zkrecipes/testing';

const startedAt = performance.now();
function say(message: string): void {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1).padStart(5);
  console.log(`[${seconds}s] ${message}`);
}

function connectArgument(): string | undefined {
  const index = process.argv.indexOf('--connect');
  return index === -1 ? undefined : process.argv[index + 1];
}

async function waitForState(client: FrameworkClient, state: ConnectionState): Promise<void> {
  await waitFor(() => client.connectionState === state, { timeoutMs: 30_000, message: state });
}

async function main(): Promise<void> {
  const external = connectArgument();
  const server = external ? undefined : await TestingServer.start();
  const connectString = external ?? server!.connectString;
  say(`ZooKeeper at ${connectString}${server ? ' (embedded TestingServer)' : ''}`);

  const client = createFramework({ connectString, sessionTimeoutMs: 4000, closeOnExit: true });
  const states: string[] = [];
  client.on('stateChanged', (state, change) => {
    states.push(state);
    const session =
      change.sessionId === undefined ? '' : ` session 0x${change.sessionId.toString(16)}`;
    say(`state ${state}${session}${change.newSession ? ' (new session)' : ''}`);
  });
  await client.start();
  await client.blockUntilConnected({ timeoutMs: 15_000 });

  const member = await client.create('/demo/members/member-', {
    mode: 'EPHEMERAL_SEQUENTIAL',
    createParents: true,
    protection: true,
    data: Buffer.from('hello from the demo'),
  });
  say(`created ephemeral ${member}`);

  if (server) {
    say('stopping and restarting the server (well within the 4 s session timeout)...');
    await server.stop();
    await waitForState(client, ConnectionState.SUSPENDED);
    await server.restart();
    await waitForState(client, ConnectionState.RECONNECTED);
    say(
      `the session survived: ${member} ${(await client.exists(member)) ? 'still exists' : 'is gone'}`,
    );
  }

  say('killing the session on the server (as an expiry would)...');
  await killSession(client, connectString);
  await waitFor(() => states.includes(ConnectionState.LOST), {
    timeoutMs: 30_000,
    message: 'LOST',
  });
  await waitForState(client, ConnectionState.RECONNECTED);
  say(
    `new session: ${member} ${(await client.exists(member)) ? 'still exists' : 'is gone, as an ephemeral should be'}`,
  );

  await client.delete('/demo', { deleteChildren: true, quietly: true });
  await client.close();
  await server?.close();
  say(`done: ${states.join(' -> ')}`);
}

main().catch((error: unknown) => {
  console.error('demo failed:', error);
  process.exitCode = 1;
});
