import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JuteWriter } from '../src/jute-writer.js';
import { decodeMultiRead, encodeMultiRead } from '../src/multi-read-codec.js';
import { decodeStat } from '../src/stat.js';
import { SAMPLE_STAT, statBytes } from './stat-fixture.js';

describe('encodeMultiRead', () => {
  it('writes one getData record per path, without a watch, then the done header', () => {
    const body = encodeMultiRead(['/a', '/bc']);
    const expected =
      '00000004' +
      '00' +
      'ffffffff' +
      '00000002' +
      Buffer.from('/a').toString('hex') +
      '00' +
      '00000004' +
      '00' +
      'ffffffff' +
      '00000003' +
      Buffer.from('/bc').toString('hex') +
      '00' +
      'ffffffff' +
      '01' +
      'ffffffff';
    assert.equal(body.toString('hex'), expected);
  });
});

describe('decodeMultiRead', () => {
  function reply(parts: (Buffer | JuteWriter)[]): Buffer {
    return Buffer.concat(parts.map((p) => (p instanceof JuteWriter ? p.toBuffer() : p)));
  }

  it('reads data and Stat per read, an error code for a read that failed, in order', () => {
    const body = reply([
      new JuteWriter().int(4).bool(false).int(0).buffer(Buffer.from('hello')),
      statBytes(),
      new JuteWriter().int(-1).bool(false).int(-101).int(-101),
      new JuteWriter().int(4).bool(false).int(0).buffer(undefined),
      statBytes(),
      new JuteWriter().int(-1).bool(true).int(-1),
    ]);
    const [first, second, third, ...rest] = decodeMultiRead(body, 3);
    assert.deepEqual(rest, []);
    assert.ok(first?.ok);
    assert.equal(first.data.toString(), 'hello');
    assert.deepEqual(decodeStat(first.stat), SAMPLE_STAT);
    assert.deepEqual(second, { ok: false, code: -101 });
    assert.ok(third?.ok);
    assert.equal(third.data.length, 0, 'null data reads as empty');
  });

  it('throws when the number of results is not the number of reads', () => {
    const body = new JuteWriter().int(-1).bool(true).int(-1).toBuffer();
    assert.throws(() => decodeMultiRead(body, 1), /0 results for 1 reads/);
  });

  it('throws on a reply cut short and on an unexpected op type', () => {
    const short = reply([
      new JuteWriter().int(4).bool(false).int(0).buffer(Buffer.from('x')),
      statBytes().subarray(0, 67),
    ]);
    assert.throws(() => decodeMultiRead(short, 1), /need 68 bytes/);
    const odd = new JuteWriter().int(8).bool(false).int(0).toBuffer();
    assert.throws(() => decodeMultiRead(odd, 1), /unexpected op type 8/);
  });
});
