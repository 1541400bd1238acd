// The setup of tests where two sessions share a recipe's node: a real server and two clients.
import type { FrameworkClient } from '@zkrecipes/framework';
import { TestingServer } from '@zkrecipes/testing';
import { closeAll } from './close-all.js';
import { connect } from './connect.js';

/** A started server and two connected clients of it (`connect`'s settings). */
export interface ServerAndTwoClients {
  readonly server: TestingServer;
  readonly client: FrameworkClient;
  readonly other: FrameworkClient;
  /** Closes both clients, then the server. */
  close(): Promise<void>;
}

export async function serverAndTwoClients(): Promise<ServerAndTwoClients> {
  const server = await TestingServer.start();
  const [client, other] = await Promise.all([
    connect(server.connectString),
    connect(server.connectString),
  ]);
  return {
    server,
    client,
    other,
    close: async () => {
      await closeAll([client, other]);
      await server.close();
    },
  };
}
