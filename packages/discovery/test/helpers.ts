// Shared by the discovery tests: the Java peer running Curator's discovery, and its answers.
import { JavaPeer } from '@zkrecipes/testing';

/** curator-x-discovery and what it needs beyond Curator's client (its jar's manifest). */
export const DISCOVERY_JARS = [
  'curator-x-discovery.jar',
  'jackson-databind.jar',
  'jackson-core.jar',
  'jackson-annotations.jar',
] as const;

// dist/test/helpers.js -> test/fixtures/*.java in the package's sources.
const peerSource = new URL('../../test/fixtures/CuratorDiscoveryPeer.java', import.meta.url)
  .pathname;

/** A Java peer running Curator's discovery on `connectString`, started on `basePath`. */
export async function startDiscoveryPeer(
  connectString: string,
  basePath: string,
  options: { sessionTimeoutMs?: number; compatible?: boolean } = {},
): Promise<JavaPeer> {
  const peer = await JavaPeer.start({
    source: peerSource,
    args: [connectString, String(options.sessionTimeoutMs ?? 10_000)],
    extraJars: DISCOVERY_JARS,
  });
  await peer.request(`start ${basePath} ${options.compatible ?? true}`);
  return peer;
}

/** Base64 of UTF-8 JSON, as the peer takes its arguments. */
export function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}

/** The JSON value of the base64 after "OK ". */
export function fromOk(answer: string): unknown {
  return JSON.parse(Buffer.from(answer.slice(3), 'base64').toString('utf8'));
}

/** The bytes of the base64 after "OK ". */
export function bytesFromOk(answer: string): Buffer {
  return Buffer.from(answer.slice(3), 'base64');
}
