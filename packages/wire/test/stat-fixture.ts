// A Stat as the server writes it, for replies built by hand in the codec tests.
import { JuteWriter } from '../src/jute-writer.js';
import type { Stat } from '../src/stat.js';

/** A Stat whose every field differs from the others, so a field read at the wrong offset shows. */
export const SAMPLE_STAT: Stat = {
  czxid: 0x100000001n,
  mzxid: 0x100000002n,
  pzxid: 0x100000003n,
  ctime: 1_700_000_000_001,
  mtime: 1_700_000_000_002,
  version: 4,
  cversion: 5,
  aversion: 6,
  ephemeralOwner: 0x7000000000000007n,
  dataLength: 8,
  numChildren: 9,
};

/** `stat` in jute's field order (the order of ZooKeeper's StatPersisted/Stat record). */
export function statBytes(stat: Stat = SAMPLE_STAT): Buffer {
  return Buffer.from(
    new JuteWriter()
      .long(stat.czxid)
      .long(stat.mzxid)
      .long(stat.ctime)
      .long(stat.mtime)
      .int(stat.version)
      .int(stat.cversion)
      .int(stat.aversion)
      .long(stat.ephemeralOwner)
      .int(stat.dataLength)
      .int(stat.numChildren)
      .long(stat.pzxid)
      .toBuffer(),
  );
}
