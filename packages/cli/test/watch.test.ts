// `zkrecipes watch` as a subprocess: a new view is printed when the recipe changes, and
// SIGINT (Ctrl-C) ends it with exit 0 and its session closed.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { GroupMember } from '@zkrecipes/group';
import { TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { inspectJson, startCli } from './helpers.js';

interface GroupView {
  kind: string;
  members: { id: string; data: string }[];
}

describe('zkrecipes watch', () => {
  let server: TestingServer;
  let client: FrameworkClient;

  before(async () => {
    server = await TestingServer.start();
    client = await connectedClient(server);
  });
  after(async () => {
    await closeAll([client]);
    await server.close();
  });

  it('prints a JSON line per change of a group until SIGINT, then exits 0', async () => {
    const path = uniquePath('cli-watch');
    const one = new GroupMember(client, path, 'worker-1', Buffer.from('a'));
    await one.start();
    await waitFor(async () => (await client.getChildren(path).catch(() => [])).length === 1);

    const { child, lines } = startCli(['watch', path, '--json', '-c', server.connectString]);
    const views = (): GroupView[] => lines.map((line) => JSON.parse(line) as GroupView);
    const ids = (view: GroupView | undefined): string[] => view?.members.map((m) => m.id) ?? [];
    try {
      await waitFor(() => ids(views().at(-1)).join() === 'worker-1', { message: 'first view' });

      const two = new GroupMember(client, path, 'worker-2', Buffer.from('b'));
      await two.start();
      await waitFor(() => ids(views().at(-1)).join() === 'worker-1,worker-2', {
        message: 'view with worker-2',
      });
      await one.setThisData(Buffer.from('a2'));
      await waitFor(() => views().at(-1)?.members[0]?.data === 'a2', { message: 'new payload' });
      await two.close();
      await waitFor(() => ids(views().at(-1)).join() === 'worker-1', { message: 'worker-2 gone' });
      assert.ok(views().every((view) => view.kind === 'group'));
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0);
    }
    await one.close();
  });

  it('prints the initial view once: it matches inspect and nothing follows until a change', async () => {
    const path = uniquePath('cli-watch-once');
    const member = new GroupMember(client, path, 'worker-1', Buffer.from('a'));
    await member.start();
    await waitFor(async () => (await client.getChildren(path).catch(() => [])).length === 1);

    const { child, lines } = startCli(['watch', path, '--json', '-c', server.connectString]);
    // Everything but the clock: when it was read and how old each node was then.
    const withoutTime = (view: GroupView & { inspectedAt?: string }): unknown => ({
      ...view,
      inspectedAt: undefined,
      members: view.members.map((member) => ({ ...member, ageMs: undefined })),
    });
    try {
      await waitFor(() => lines.length >= 1, { message: 'first view' });
      // A second CLI process takes far longer than watch's 100 ms debounce, so a repeated
      // first view would be on stdout by the time this returns.
      const inspected = await inspectJson(server, path);
      assert.deepEqual(
        lines.map((line) => withoutTime(JSON.parse(line) as GroupView)),
        [withoutTime(inspected as unknown as GroupView)],
      );
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0);
    }
    await member.close();
  });
});
