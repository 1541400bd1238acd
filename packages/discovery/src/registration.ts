// One instance this process registered: a PersistentNode that keeps its node in place.
import { CreateMode, joinPath, type FrameworkClient, type Logger } from '@zkrecipes/framework';
import { PersistentNode } from '@zkrecipes/group';
import type { ServiceInstance, ServicePayload } from './service-instance.js';
import { ServiceType } from './service-type.js';

/** The node mode of a service type, as Curator's `internalRegisterService` chooses it. */
export function modeOf(serviceType: ServiceType): CreateMode {
  switch (serviceType) {
    case ServiceType.DYNAMIC:
      return CreateMode.EPHEMERAL;
    case ServiceType.DYNAMIC_SEQUENTIAL:
      return CreateMode.EPHEMERAL_SEQUENTIAL;
    default:
      return CreateMode.PERSISTENT;
  }
}

/**
 * A registered instance. The node is created on start, re-created when deleted underneath and
 * after a new session (with the latest data), and deleted on close. A DYNAMIC_SEQUENTIAL
 * instance keeps its first sequence number across re-creations.
 */
export class Registration<P extends ServicePayload> {
  readonly node: PersistentNode;
  instance: ServiceInstance<P>;

  constructor(
    client: FrameworkClient,
    servicePath: string,
    instance: ServiceInstance<P>,
    bytes: Buffer,
    report: (error: unknown, context: string) => void,
    logger: Logger,
  ) {
    this.instance = instance;
    const path = joinPath(servicePath, instance.id);
    this.node = new PersistentNode(
      client,
      // A sequential instance may have an empty id: the node is then `<service>/0000000007`.
      instance.id === '' ? `${servicePath}/` : path,
      modeOf(instance.serviceType),
      bytes,
    );
    this.node.errors.subscribe(({ error, context }) => report(error, `${context} (${path})`));
    this.node.createdPaths.subscribe((created) => logger.debug('registered', { node: created }));
  }

  /** The same service, id and type: an update can keep the node. */
  sameNode(other: ServiceInstance<P>): boolean {
    return (
      other.name === this.instance.name &&
      other.id === this.instance.id &&
      other.serviceType === this.instance.serviceType
    );
  }
}
