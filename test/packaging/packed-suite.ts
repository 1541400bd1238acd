// What every packaging suite starts from: a real ZooKeeper and every public package packed.
import { after, before } from 'node:test';
import { TestingServer } from '@zkrecipes/testing';
import { sharedPacks } from './shared-packs.js';
import type { TempProject } from './temp-project.js';

/** The suite's server, the directory of tarballs, and package name -> tarball path. */
export interface PackedSuite {
  readonly server: TestingServer;
  readonly packs: TempProject;
  readonly tarballs: ReadonlyMap<string, string>;
  /** Whether other files of the run share the tarballs (and what is made from them). */
  readonly shared: boolean;
}

/**
 * Adds the `before` hook that starts the server and gets the run's tarballs (packed once for
 * every file, see shared-packs.ts) to the current suite, and the `after` hook that ends the
 * server; the function returned gives them once `before` ran.
 */
export function packedSuite(): () => PackedSuite {
  let server: TestingServer | undefined;
  let packs: TempProject | undefined;
  let tarballs: ReadonlyMap<string, string> | undefined;
  let shared = true;
  before(async () => {
    server = await TestingServer.start();
    ({ packs, tarballs, shared } = await sharedPacks());
  });
  after(async () => {
    await server?.close();
    if (!shared) packs?.remove();
  });
  return () => ({ server: server!, packs: packs!, tarballs: tarballs!, shared });
}
