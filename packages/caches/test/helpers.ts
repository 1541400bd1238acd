// Shared by the caches tests: event recorders and views of the cache and of the server.
import type { FrameworkClient } from '@zkrecipes/framework';
import { waitFor } from '@zkrecipes/testing';
import type { PathChildrenCache, PathChildrenCacheEvent } from '../src/index.js';

/** Records a cache's events as `TYPE name` strings (name = last path segment). */
export class EventLog {
  readonly events: PathChildrenCacheEvent[] = [];

  constructor(cache: PathChildrenCache) {
    cache.events.subscribe((event) => this.events.push(event));
  }

  /** `CHILD_ADDED a`, `INITIALIZED`, `CONNECTION_SUSPENDED`, ... */
  get lines(): string[] {
    return this.events.map(describeEvent);
  }

  /** The lines after the last event of `type` (or all, if none). */
  linesAfter(type: PathChildrenCacheEvent['type']): string[] {
    let index = -1;
    this.events.forEach((event, i) => {
      if (event.type === type) index = i;
    });
    return this.events.slice(index + 1).map(describeEvent);
  }

  /** Waits until `count` events have been recorded; returns them as lines. */
  async waitForCount(count: number, message: string): Promise<string[]> {
    await waitFor(() => this.events.length >= count, { message, intervalMs: 5 });
    return this.lines;
  }

  /** Waits for an event matching `line` exactly. */
  async waitForLine(line: string): Promise<void> {
    await waitFor(() => this.lines.includes(line), { message: line, intervalMs: 5 });
  }

  clear(): void {
    this.events.length = 0;
  }
}

export function describeEvent(event: PathChildrenCacheEvent): string {
  switch (event.type) {
    case 'CHILD_ADDED':
    case 'CHILD_UPDATED':
    case 'CHILD_REMOVED':
      return `${event.type} ${event.data.path.slice(event.data.path.lastIndexOf('/') + 1)}`;
    default:
      return event.type;
  }
}

/** The cached children as `name=data` strings, sorted. */
export function cachedView(cache: PathChildrenCache): string[] {
  return cache.getCurrentData().map((child) => {
    const name = child.path.slice(child.path.lastIndexOf('/') + 1);
    return `${name}=${child.data?.toString() ?? ''}`;
  });
}

/** The server's children of `path` as `name=data` strings, sorted. */
export async function serverView(client: FrameworkClient, path: string): Promise<string[]> {
  const names = await client.getChildren(path);
  const view: string[] = [];
  for (const name of names.sort()) {
    try {
      const { data } = await client.getData(`${path}/${name}`);
      view.push(`${name}=${data.toString()}`);
    } catch {
      // deleted meanwhile: the caller compares again
    }
  }
  return view;
}
