import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JuteReader } from '../src/jute-reader.js';
import { OpCode } from '../src/op-code.js';
import { encodeReconfig } from '../src/reconfig-codec.js';

describe('encodeReconfig', () => {
  it('writes `ustring joiningServers; ustring leavingServers; ustring newMembers; long curConfigId`', () => {
    const body = encodeReconfig({ leavingServers: '3', curConfigId: 0x100000004n });
    assert.equal(
      body.toString('hex'),
      'ffffffff' + '00000001' + '33' + 'ffffffff' + '0000000100000004',
    );
    assert.equal(OpCode.reconfig, 16);
  });

  it('keeps every string it is given, -1 as "any version"', () => {
    const joining = 'server.4=127.0.0.1:2888:3888:participant;127.0.0.1:2181';
    const reader = new JuteReader(
      encodeReconfig({ joiningServers: joining, newMembers: 'x', curConfigId: -1n }),
    );
    assert.equal(reader.string(), joining);
    assert.equal(reader.string(), undefined);
    assert.equal(reader.string(), 'x');
    assert.equal(reader.long(), -1n);
  });
});
