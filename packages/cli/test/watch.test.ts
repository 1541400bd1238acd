// `zkrecipes watch` as a subprocess: a new view is printed when the recipe changes, and
// SIGINT (Ctrl-C) or SIGTERM ends it with exit 0 and its session closed, under npx too.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import type { FrameworkClient } from '@zkrecipes/framework';
import { GroupMember } from '@zkrecipes/group';
import { InterProcessMutex } from '@zkrecipes/locks';
import { mntr, TestingServer, uniquePath, waitFor } from '@zkrecipes/testing';
import { closeAll, connectedClient } from '@zkrecipes/test-support';
import { inspectJson, sessionOf, startCli } from './helpers.js';

interface GroupView {
  kind: string;
  members: { id: string; data: string }[];
}

describe('zkrecipes watch', () => {
  let server: TestingServer;
  let client: FrameworkClient;

  /** Sessions the server holds: the CLI's is among them until it closes it. */
  const sessions = async (): Promise<number> =>
    (await mntr(server.host, server.port)).get('global_sessions') ?? NaN;

  /** Runs `body` with a watch of a group started (its first view printed), then stops it. */
  async function whileWatching(
    options: { npx?: boolean },
    stopWith: (child: ChildProcess) => void,
  ): Promise<{ code: number | null; signal: string | null; stderr: string }> {
    const path = uniquePath('cli-watch-stop');
    const member = new GroupMember(client, path, 'worker-1', Buffer.from('a'));
    await member.start();
    const before = await sessions();
    const { child, lines, stderr } = startCli(
      ['watch', path, '--json', '-c', server.connectString],
      options,
    );
    const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
    try {
      await waitFor(() => lines.length >= 1, { message: 'first view', timeoutMs: 20_000 });
      assert.equal(await sessions(), before + 1, "the CLI's session");
    } finally {
      stopWith(child);
    }
    const [code, signal] = await exited;
    // Closed, not dropped: a dropped session would stay for its timeout (seconds).
    assert.equal(await sessions(), before, 'the session closed at exit');
    await member.close();
    return { code, signal, stderr: stderr() };
  }

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

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} stops it cleanly with exit 0, also when it arrives twice at once`, async () => {
      for (const times of [1, 2]) {
        const run = await whileWatching({}, (child) => {
          for (let i = 0; i < times; i++) child.kill(signal);
        });
        assert.deepEqual(run, { code: 0, signal: null, stderr: '' }, `${signal} x${times}`);
      }
    });
  }

  it('under npx, a Ctrl-C or SIGTERM to the process group (npx forwards its own: two) ends npx with exit 0', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const run = await whileWatching({ npx: true }, (child) => process.kill(-child.pid!, signal));
      assert.deepEqual([run.code, run.signal], [0, null], `${signal}: ${run.stderr}`);
      assert.doesNotMatch(run.stderr, /npm error/);
    }
  });

  it('watches a free lock whose path does not exist, and shows its holder once it is taken', async () => {
    const path = uniquePath('cli-watch-free');
    const { child, lines } = startCli(['watch', path, '--json', '-c', server.connectString]);
    const views = (): { kind: string; exists?: boolean; holder?: { sessionId: string } }[] =>
      lines.map((line) => JSON.parse(line) as { kind: string });
    const mutex = new InterProcessMutex(client, path);
    try {
      await waitFor(() => views().length >= 1, { message: 'first view' });
      assert.deepEqual([views()[0]!.kind, views()[0]!.exists], ['empty', false]);
      await mutex.acquire();
      await waitFor(() => views().at(-1)?.holder?.sessionId === sessionOf(client), {
        message: 'the holder shown',
      });
      assert.equal(views().at(-1)!.kind, 'mutex');
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0);
      await mutex.release();
    }
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
