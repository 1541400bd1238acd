import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { LeaderSelector } from '../src/leader-selector.js';

// dist/test/*.test.js -> dist/test/fixtures/promise-hooks-child.js
const child = new URL('./fixtures/promise-hooks-child.js', import.meta.url).pathname;

describe('LeaderSelector and the rest of the process', () => {
  let server: TestingServer;
  const clients: FrameworkClient[] = [];
  before(async () => {
    server = await TestingServer.start();
    clients.push(await connectedClient(server));
  });
  after(async () => {
    await closeAll(clients);
    await server.close();
  });

  it("turns Node's promise hooks on only while its takeLeadership runs: not in line, not after", async () => {
    const path = uniquePath('hooks');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const leader = new LeaderSelector(clients[0]!, path, () => released);
    await leader.start();
    await waitFor(() => leader.isLeader, { message: 'the test leads' });
    const participant = spawn(process.execPath, [child, server.connectString, path], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const lines = createInterface({ input: participant.stdout });
      const output: string[] = [];
      lines.on('line', (line) => {
        output.push(line);
        if (line === 'IN_LINE') release();
      });
      const exitCode = await new Promise<number | null>((resolve) =>
        participant.on('exit', resolve),
      );
      assert.equal(exitCode, 0, `the participant exited with ${exitCode}: ${output.join(' | ')}`);
      assert.deepEqual(JSON.parse(output.at(-1) ?? '{}'), {
        beforeStart: false,
        inLine: false,
        leading: true,
        afterLeading: false,
      });
    } finally {
      release();
      participant.kill();
      await leader.close();
    }
  });
});
