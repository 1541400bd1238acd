import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readAcls, writeAcls, type Acl } from '../src/acl.js';
import { decodeGetAcl, encodeSetAcl } from '../src/acl-codec.js';
import { JuteReader } from '../src/jute-reader.js';
import { JuteWriter } from '../src/jute-writer.js';
import { OpCode } from '../src/op-code.js';
import { SAMPLE_STAT, statBytes } from './stat-fixture.js';

const hex = (text: string): string => Buffer.from(text).toString('hex');

const ACL: readonly Acl[] = [
  { perms: 31, id: { scheme: 'world', id: 'anyone' } },
  { perms: 1, id: { scheme: 'digest', id: 'app:c2VjcmV0' } },
];

describe('encodeSetAcl', () => {
  it('writes `ustring path; vector<ACL> acl; int version` (op 7), -1 as ffffffff', () => {
    const entry = `0000001f00000005${hex('world')}00000006${hex('anyone')}`;
    assert.equal(
      encodeSetAcl('/a', [ACL[0]!], -1).toString('hex'),
      `00000002${hex('/a')}00000001${entry}ffffffff`,
    );
    assert.equal(
      encodeSetAcl('/a', [ACL[0]!], 2).toString('hex'),
      `00000002${hex('/a')}00000001${entry}00000002`,
    );
    assert.equal(OpCode.setACL, 7);
  });
});

describe('decodeGetAcl', () => {
  it('reads the ACL entries, in order, and the Stat after them (op 6)', () => {
    const body = Buffer.concat([writeAcls(new JuteWriter(), ACL).toBuffer(), statBytes()]);
    assert.deepEqual(decodeGetAcl(body), { acl: ACL, stat: SAMPLE_STAT });
    assert.equal(OpCode.getACL, 6);
  });

  it('reads jute null (-1) and empty vectors as no entries', () => {
    for (const count of [-1, 0]) {
      const body = Buffer.concat([new JuteWriter().int(count).toBuffer(), statBytes()]);
      assert.deepEqual(decodeGetAcl(body), { acl: [], stat: SAMPLE_STAT });
    }
  });

  it('throws on a reply cut short', () => {
    const entries = writeAcls(new JuteWriter(), ACL).toBuffer();
    assert.throws(() => decodeGetAcl(entries.subarray(0, entries.length - 3)), /cut short/);
    assert.throws(() => decodeGetAcl(entries), /Stat: need 68 bytes/);
  });
});

describe('readAcls', () => {
  it('reads what writeAcls wrote and leaves the reader after it', () => {
    const bytes = writeAcls(new JuteWriter(), ACL).int(7).toBuffer();
    const reader = new JuteReader(bytes);
    assert.deepEqual(readAcls(reader), ACL);
    assert.equal(reader.int(), 7);
  });
});
