import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeDelete, encodeMulti, encodePathWatch, encodeRequest, OpCode } from '@zkrecipes/wire';
import { readZkRequest } from '../src/zk-request.js';

/** A request body as the proxy sees it: the frame without its length prefix. */
function body(xid: number, opCode: number, record: Buffer): Buffer {
  return encodeRequest(xid, opCode, record).subarray(4);
}

describe('readZkRequest', () => {
  it('reads the header and the path of an op whose record starts with one', () => {
    assert.deepEqual(readZkRequest(body(7, OpCode.delete, encodeDelete('/a/b', 3))), {
      xid: 7,
      opCode: OpCode.delete,
      path: '/a/b',
      paths: ['/a/b'],
    });
    assert.deepEqual(readZkRequest(body(8, OpCode.getData, encodePathWatch('/x', true))), {
      xid: 8,
      opCode: OpCode.getData,
      path: '/x',
      paths: ['/x'],
    });
  });

  it("a multi has no path of its own but lists its ops' paths", () => {
    const record = encodeMulti([
      { type: 'check', path: '/m/check', version: 1 },
      { type: 'create', path: '/m/new', data: Buffer.from('d'), acl: [], mode: 'PERSISTENT' },
      {
        type: 'create',
        path: '/m/ttl',
        data: Buffer.alloc(0),
        acl: [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }],
        mode: 'PERSISTENT_WITH_TTL',
        ttlMs: 1000,
      },
      { type: 'setData', path: '/m/set', data: Buffer.from('v'), version: -1 },
      { type: 'delete', path: '/m/old', version: -1 },
    ]);
    assert.deepEqual(readZkRequest(body(9, OpCode.multi, record)), {
      xid: 9,
      opCode: OpCode.multi,
      path: undefined,
      paths: ['/m/check', '/m/new', '/m/ttl', '/m/set', '/m/old'],
    });
  });

  it('a ping has no path; a body too short for a header is not a request', () => {
    assert.deepEqual(readZkRequest(body(-2, OpCode.ping, Buffer.alloc(0))), {
      xid: -2,
      opCode: OpCode.ping,
      path: undefined,
      paths: [],
    });
    assert.equal(readZkRequest(Buffer.alloc(7)), undefined);
  });
});
