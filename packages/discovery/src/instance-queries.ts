// The reads behind ServiceDiscovery's queries: one listing, then each instance node read
// (bounded fan-out), missing nodes and nodes that do not hold an instance left out.
import pLimit from 'p-limit';
import { isNoNode, joinPath, type FrameworkClient } from '@zkrecipes/framework';
import type { InstanceSerializer } from './json-instance-serializer.js';
import type { ServiceInstance, ServicePayload } from './service-instance.js';

/** Reads instances for ServiceDiscovery; every read carries the call's signal. */
export class InstanceQueries<P extends ServicePayload> {
  readonly #client: FrameworkClient;
  readonly #serializer: InstanceSerializer<P>;
  readonly #concurrency: number;
  readonly #report: (error: unknown, context: string) => void;

  constructor(
    client: FrameworkClient,
    serializer: InstanceSerializer<P>,
    concurrency: number,
    report: (error: unknown, context: string) => void,
  ) {
    this.#client = client;
    this.#serializer = serializer;
    this.#concurrency = concurrency;
    this.#report = report;
  }

  /** The children of `path`, sorted; none when it does not exist. */
  async names(path: string, signal: AbortSignal): Promise<string[]> {
    try {
      return (await this.#client.getChildren(path, { signal })).sort();
    } catch (error) {
      if (isNoNode(error)) return [];
      throw error;
    }
  }

  /** The instances under a service path, in node-name order. */
  async instances(servicePath: string, signal: AbortSignal): Promise<ServiceInstance<P>[]> {
    const ids = await this.names(servicePath, signal);
    const limit = pLimit(this.#concurrency);
    const found = await Promise.all(
      ids.map((id) => limit(() => this.instance(joinPath(servicePath, id), signal))),
    );
    return found.filter((instance) => instance !== undefined);
  }

  /** The instance at `path`; undefined when there is no node or it does not hold one. */
  async instance(path: string, signal: AbortSignal): Promise<ServiceInstance<P> | undefined> {
    let data: Buffer;
    try {
      ({ data } = await this.#client.getData(path, { signal }));
    } catch (error) {
      if (isNoNode(error)) return undefined;
      throw error;
    }
    try {
      return this.#serializer.deserialize(data);
    } catch (error) {
      this.#report(error, `reading the instance at ${path}`);
      return undefined;
    }
  }
}
