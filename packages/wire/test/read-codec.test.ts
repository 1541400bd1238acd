import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JuteWriter } from '../src/jute-writer.js';
import {
  decodeGetChildren2,
  decodeGetData,
  encodePathWatch,
  encodeSetData,
} from '../src/read-codec.js';
import { SAMPLE_STAT, statBytes } from './stat-fixture.js';

const hex = (text: string): string => Buffer.from(text).toString('hex');

describe('encodePathWatch and encodeSetData', () => {
  it('write `ustring path; bool watch`', () => {
    assert.equal(encodePathWatch('/r', true).toString('hex'), `00000002${hex('/r')}01`);
    assert.equal(encodePathWatch('/r', false).toString('hex'), `00000002${hex('/r')}00`);
  });

  it('write `ustring path; buffer data; int version` (-1 as all ones)', () => {
    assert.equal(
      encodeSetData('/s', Buffer.from([7, 8]), -1).toString('hex'),
      `00000002${hex('/s')}000000020708ffffffff`,
    );
    assert.equal(
      encodeSetData('/s', Buffer.alloc(0), 3).toString('hex'),
      `00000002${hex('/s')}0000000000000003`,
    );
  });
});

describe('decodeGetData and decodeGetChildren2', () => {
  it('read the data as a copy and the Stat after it', () => {
    const body = Buffer.concat([
      new JuteWriter().buffer(Buffer.from('abc')).toBuffer(),
      statBytes(),
    ]);
    const read = decodeGetData(body);
    assert.deepEqual(read, { data: Buffer.from('abc'), stat: SAMPLE_STAT });
    body[4] = 0x7a; // the reply's buffer is reused by the socket: the data must not change
    assert.equal(read.data.toString(), 'abc');
  });

  it('read jute null data (-1) as empty', () => {
    const body = Buffer.concat([new JuteWriter().int(-1).toBuffer(), statBytes()]);
    assert.deepEqual(decodeGetData(body), { data: Buffer.alloc(0), stat: SAMPLE_STAT });
  });

  it('read the children and the parent Stat', () => {
    const names = new JuteWriter().int(2).string('a').string('lock-0000000001').toBuffer();
    assert.deepEqual(decodeGetChildren2(Buffer.concat([names, statBytes()])), {
      children: ['a', 'lock-0000000001'],
      stat: SAMPLE_STAT,
    });
    const none = new JuteWriter().int(0).toBuffer();
    assert.deepEqual(decodeGetChildren2(Buffer.concat([none, statBytes()])).children, []);
  });

  it('throw on a reply cut short', () => {
    const body = new JuteWriter().buffer(Buffer.from('abc')).toBuffer();
    assert.throws(() => decodeGetData(body), /Stat: need 68 bytes at offset 7, have 0/);
    assert.throws(() => decodeGetChildren2(new JuteWriter().int(1).toBuffer()), /cut short/);
  });
});
