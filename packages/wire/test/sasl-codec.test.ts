import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeSaslResponse, encodeSaslRequest } from '../src/sasl-codec.js';

describe('sasl codec', () => {
  it('frames GetSASLRequest {buffer token} under op 102 and reads SetSASLResponse, null as empty', () => {
    const frame = encodeSaslRequest(7, Buffer.from('ab'));
    assert.deepEqual([...frame], [0, 0, 0, 14, 0, 0, 0, 7, 0, 0, 0, 102, 0, 0, 0, 2, 0x61, 0x62]);
    assert.deepEqual(decodeSaslResponse(Buffer.from([0, 0, 0, 2, 0x61, 0x62])), Buffer.from('ab'));
    assert.deepEqual(decodeSaslResponse(Buffer.from([0xff, 0xff, 0xff, 0xff])), Buffer.alloc(0));
    assert.deepEqual(decodeSaslResponse(Buffer.alloc(0)), Buffer.alloc(0));
  });
});
