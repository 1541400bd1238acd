// @zkrecipes/discovery: explicit named exports only.
export { ServiceDiscovery } from './service-discovery.js';
export type { ServiceDiscoveryOptions } from './service-discovery.js';
export { ServiceCache } from './service-cache.js';
export type { ServiceCacheListener, ServiceCacheOptions } from './service-cache.js';
export { ServiceProvider } from './service-provider.js';
export type { ServiceProviderOptions } from './service-provider.js';
export { RandomStrategy, RoundRobinStrategy, StickyStrategy } from './provider-strategy.js';
export type { ProviderStrategy } from './provider-strategy.js';
export type { DownInstancePolicy } from './down-instance-policy.js';
export { buildUri, createServiceInstance } from './service-instance.js';
export type {
  ServiceInstance,
  ServiceInstanceOptions,
  ServicePayload,
} from './service-instance.js';
export { ServiceType } from './service-type.js';
export { UriSpec } from './uri-spec.js';
export type { UriSpecInstance, UriSpecPart } from './uri-spec.js';
export { JsonInstanceSerializer } from './json-instance-serializer.js';
export type {
  InstanceSerializer,
  JsonInstanceSerializerOptions,
} from './json-instance-serializer.js';
export type { JsonValue } from '@zkrecipes/framework/recipe-support';
export type { CallOptions } from './call-options.js';
