// `zkrecipes watch <path>`: the inspect view, re-read and printed whenever the nodes change.
// Change detection is the caches' job (a PathChildrenCache on the path, and on a semaphore's
// `leases` and `locks`, plus a NodeCache on the path itself); on any event the whole view is
// re-read, so what is printed is always a consistent decode, never a patched one.
import { NodeCache, PathChildrenCache, StartMode } from '@zkrecipes/caches';
import { joinPath, type FrameworkClient } from '@zkrecipes/framework';
import { merge, type Observable, type Subscription } from 'rxjs';
import type { CliIo } from './cli-io.js';
import type { CliOptions } from './cli-options.js';
import { connect } from './connect.js';
import { CliError, ExitCode } from './exit-code.js';
import { printInspection } from './inspect-command.js';
import { inspectPath } from './inspect-path.js';

/** Changes closer together than this are printed once. */
export const WATCH_DEBOUNCE_MS = 100;
const CLEAR_SCREEN = '\u001b[2J\u001b[H';

interface Watched {
  readonly changes: Observable<unknown>;
  readonly close: () => Promise<void>;
}

async function watchNodes(client: FrameworkClient, paths: readonly string[]): Promise<Watched> {
  const caches: (PathChildrenCache | NodeCache)[] = [];
  const streams: Observable<unknown>[] = [];
  for (const path of paths) {
    const children = new PathChildrenCache(client, path, { cacheData: false });
    caches.push(children);
    streams.push(children.events);
    await children.start(StartMode.BUILD_INITIAL_CACHE);
  }
  const node = new NodeCache(client, paths[0]!);
  caches.push(node);
  streams.push(node.changes);
  await node.start({ buildInitial: true });
  return {
    changes: merge(...streams),
    close: async () => {
      await Promise.all(caches.map((cache) => cache.close()));
    },
  };
}

/** Runs `watch` until `io.signal` aborts; resolves the exit code. */
export async function watchCommand(options: CliOptions, io: CliIo): Promise<ExitCode> {
  const client = await connect(options);
  let watched: Watched | undefined;
  let subscription: Subscription | undefined;
  try {
    const first = await inspectPath(client, options.path);
    // A semaphore's state lives one level down; every other layout in the path's children.
    const paths =
      first.kind === 'semaphore'
        ? [options.path, joinPath(options.path, 'leases'), joinPath(options.path, 'locks')]
        : [options.path];
    watched = await watchNodes(client, paths);
    const show = async (): Promise<void> => {
      try {
        const inspection = await inspectPath(client, options.path);
        if (options.json) io.stdout(`${JSON.stringify(inspection)}\n`);
        else {
          io.stdout(io.interactive ? CLEAR_SCREEN : '\n');
          printInspection(inspection, { ...options, strict: false }, io);
        }
      } catch (error) {
        // The path may be deleted and come back: report and keep watching.
        if (!(error instanceof CliError)) throw error;
        if (options.json) io.stdout(`${JSON.stringify({ error: error.message })}\n`);
        else io.stdout(`${error.message}\n`);
      }
    };
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = show();
    await running;
    subscription = watched.changes.subscribe(() => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running.then(show).catch((error: unknown) => {
          io.stderr(`zkrecipes: ${error instanceof Error ? error.message : String(error)}\n`);
        });
      }, WATCH_DEBOUNCE_MS);
    });
    await new Promise<void>((resolve) => {
      if (io.signal === undefined || io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    clearTimeout(timer);
    await running;
    return ExitCode.OK;
  } finally {
    subscription?.unsubscribe();
    await watched?.close();
    await client.close();
  }
}
