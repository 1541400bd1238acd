// What every packaging suite starts from: a real ZooKeeper and every public package packed.
import { after, before } from 'node:test';
import { TestingServer } from '@zkrecipes/testing';
import { packPackages } from './pack-packages.js';
import { TempProject } from './temp-project.js';

/** The suite's server, the directory of tarballs, and package name -> tarball path. */
export interface PackedSuite {
  readonly server: TestingServer;
  readonly packs: TempProject;
  readonly tarballs: ReadonlyMap<string, string>;
}

/**
 * Adds the `before` hook that starts the server and packs the packages to the current suite,
 * and the `after` hook that ends both; the function returned gives them once `before` ran.
 */
export function packedSuite(): () => PackedSuite {
  let server: TestingServer | undefined;
  let packs: TempProject | undefined;
  let tarballs: ReadonlyMap<string, string> | undefined;
  before(async () => {
    server = await TestingServer.start();
    packs = TempProject.create('packs');
    tarballs = await packPackages(packs);
  });
  after(async () => {
    await server?.close();
    packs?.remove();
  });
  return () => ({ server: server!, packs: packs!, tarballs: tarballs! });
}
