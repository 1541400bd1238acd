import { Observable, type Subscription } from 'rxjs';
import {
  type FrameworkClient,
  iterableObservable,
  type IterableObservable,
  type Stat,
} from '@zkrecipes/framework';
import { onAbort, reportRecipeFailure } from '@zkrecipes/framework/recipe-support';
import { NodeCache, type ChildData } from '@zkrecipes/caches';
import type { ModelCodec } from './model-codec.js';
import type { ModelDataError } from './model-data-error.js';
import type { StandardSchemaV1, InferOutput } from './standard-schema.js';

/** What {@link ModeledFramework.watch} reports about the node, now and after each change. */
export type ModelWatchEvent<T> =
  | {
      /** The node exists and holds a value the model reads. */
      readonly type: 'VALUE';
      /** The node's path. */
      readonly path: string;
      /** The value, as the schema's output. */
      readonly value: T;
      /** The node's Stat when read. */
      readonly stat: Stat;
    }
  | {
      /** The node does not exist. */
      readonly type: 'ABSENT';
      /** The node's path. */
      readonly path: string;
    }
  | {
      /** The node holds data the model cannot read; the watch goes on. */
      readonly type: 'INVALID';
      /** The node's path. */
      readonly path: string;
      /** Why, with the bytes and the schema's issues. */
      readonly error: ModelDataError;
      /** The node's Stat when read. */
      readonly stat: Stat;
    };

/**
 * The model node at `path` over time, from a NodeCache started for each subscriber: its
 * current value first, then every change it sees, decoded in order. Ends when `signal` aborts.
 */
export function watchModel<S extends StandardSchemaV1>(
  client: FrameworkClient,
  path: string,
  codec: ModelCodec<S>,
  signal: AbortSignal | undefined,
): IterableObservable<ModelWatchEvent<InferOutput<S>>> {
  type Event = ModelWatchEvent<InferOutput<S>>;
  const toEvent = async (node: ChildData | undefined): Promise<Event> => {
    if (node === undefined) return { type: 'ABSENT', path };
    try {
      const value = await codec.decode(node.data ?? new Uint8Array(), path);
      return { type: 'VALUE', path, value, stat: node.stat };
    } catch (error) {
      return { type: 'INVALID', path, error: error as ModelDataError, stat: node.stat };
    }
  };
  return iterableObservable(
    new Observable<Event>((subscriber) => {
      const cache = new NodeCache(client, path);
      // Decoding may be asynchronous (a schema's validate): one at a time keeps the order.
      let queue = Promise.resolve();
      let changes: Subscription | undefined;
      let stopListening: (() => void) | undefined;
      const onAborted = (): void => subscriber.complete();
      const deliver = (node: ChildData | undefined): void => {
        queue = queue
          .then(() => toEvent(node))
          .then((event) => subscriber.next(event))
          .catch((error: unknown) =>
            reportRecipeFailure(client, undefined, error, `watch ${path}`),
          );
      };
      if (signal?.aborted) subscriber.complete();
      else {
        stopListening = signal && onAbort(signal, onAborted);
        // Read before subscribing (the cache replays its latest value), so that the first
        // event is the node as it is, not the "nothing read yet" it starts from.
        cache.start({ buildInitial: true }).then(
          () => {
            if (!subscriber.closed) changes = cache.changes.subscribe(deliver);
          },
          (error: unknown) => subscriber.error(error),
        );
      }
      return () => {
        stopListening?.();
        changes?.unsubscribe();
        void cache.close();
      };
    }),
  );
}
