// `zkrecipes watch <path>`: the inspect view, re-read and printed whenever the nodes change.
// Change detection is the caches' job (a PathChildrenCache on the path, and on a semaphore's
// `leases` and `locks`, plus a NodeCache on the path itself); on any event the whole view is
// re-read, so what is printed is always a consistent decode, never a patched one.
import { NodeCache, PathChildrenCache, StartMode } from '@zkrecipes/caches';
import { joinPath, type FrameworkClient } from '@zkrecipes/framework';
import type { CliIo } from './cli-io.js';
import type { CliOptions } from './cli-args.js';
import { connect } from './connect.js';
import { CliError, ExitCode } from './exit-code.js';
import { printInspection } from './inspect-command.js';
import { inspectPath } from './inspect-path.js';
import { onAbort } from '@zkrecipes/framework/recipe-support';

/** Changes closer together than this are printed once. */
export const WATCH_DEBOUNCE_MS = 100;
const CLEAR_SCREEN = '\u001b[2J\u001b[H';

/**
 * Starts the caches and calls `onChange` for every change they report after their initial
 * read. Their listeners, not their streams: NodeCache's stream replays its current value to
 * each subscriber, which is the initial view again, not a change. Resolves the function that
 * closes them.
 */
async function watchNodes(
  client: FrameworkClient,
  paths: readonly string[],
  onChange: () => void,
): Promise<() => Promise<void>> {
  const caches: (PathChildrenCache | NodeCache)[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(caches.map((cache) => cache.close()));
  };
  try {
    for (const path of paths) {
      const children = new PathChildrenCache(client, path, { cacheData: false });
      caches.push(children);
      children.on('childEvent', onChange);
      await children.start(StartMode.BUILD_INITIAL_CACHE);
    }
    const node = new NodeCache(client, paths[0]!);
    caches.push(node);
    node.on('nodeChanged', onChange);
    await node.start({ buildInitial: true });
  } catch (error) {
    await close();
    throw error;
  }
  return close;
}

/** Runs `watch` until `io.signal` aborts; resolves the exit code. */
export async function watchCommand(options: CliOptions, io: CliIo): Promise<ExitCode> {
  const client = await connect(options);
  let closeCaches: (() => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const first = await inspectPath(client, options.path);
    // A semaphore's state lives one level down; every other layout in the path's children.
    const paths =
      first.kind === 'semaphore'
        ? [options.path, joinPath(options.path, 'leases'), joinPath(options.path, 'locks')]
        : [options.path];
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
    // Views are printed one at a time, in order; a burst of changes gives one view.
    let running: Promise<void> = Promise.resolve();
    const onChange = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running.then(show).catch((error: unknown) => {
          io.stderr(`zkrecipes: ${error instanceof Error ? error.message : String(error)}\n`);
        });
      }, WATCH_DEBOUNCE_MS);
    };
    closeCaches = await watchNodes(client, paths, onChange);
    // The initial view, read after the caches are watching: a change from here on is printed
    // again, one before is already in it.
    running = show();
    await running;
    await new Promise<void>((resolve) => {
      if (io.signal === undefined || io.signal.aborted) resolve();
      else onAbort(io.signal, resolve);
    });
    clearTimeout(timer);
    await running;
    return ExitCode.OK;
  } finally {
    clearTimeout(timer);
    await closeCaches?.();
    await client.close();
  }
}
