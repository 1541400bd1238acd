/**
 * The adapter patches node-zookeeper-client's internals (its Exception factory, packet queue,
 * socket and reply decoding), measured against 1.1.3. A different version may move any of
 * them, and the first sign would be a silent misbehaviour under a fault. Failing at load with
 * the version found is the cheaper outcome.
 */

/** The nzc line the adapter's patches were written for. */
const SUPPORTED = /^1\.1\.\d+$/;

/** Throws unless `version` (nzc's package.json version) is 1.1.x. */
export function assertSupportedNzcVersion(version: string): void {
  if (SUPPORTED.test(version)) return;
  throw new Error(
    `@zkrecipes/framework needs node-zookeeper-client 1.1.x (it patches that version's ` +
      `internals) but found ${version}; install node-zookeeper-client@1.1.3`,
  );
}
