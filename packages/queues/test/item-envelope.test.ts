import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isInvalidArgument } from '@zkrecipes/framework';
import {
  bytesSerializer,
  CorruptEnvelopeError,
  decodeEnvelope,
  encodeEnvelope,
  envelopeSize,
  jsonSerializer,
  stringSerializer,
} from '../src/index.js';
import { recipeOfNode } from '../src/path-ownership.js';
import { sortItems } from '../src/queue-node-names.js';

// Unit tests of the byte format and the pure helpers; the server-side behaviour is covered
// by the integration files (and the bytes against real Curator in queue-interop.test.ts).
describe('Curator envelope', () => {
  it('encodes one item as 0x00010001, 0x01, length, bytes, 0x02', () => {
    const bytes = encodeEnvelope([Buffer.from('hi')]);
    assert.equal(bytes.toString('hex'), '00010001' + '01' + '00000002' + '6869' + '02');
    assert.equal(bytes.length, envelopeSize([2]));
  });

  it('encodes several items, empty ones included, and decodes them back', () => {
    const items = [Buffer.from([0, 255, 7]), Buffer.alloc(0), new Uint8Array([1, 2])];
    const bytes = encodeEnvelope(items);
    assert.equal(
      bytes.toString('hex'),
      '0001000101000000030' + '0ff07' + '0100000000' + '01000000020102' + '02',
    );
    assert.deepEqual(
      decodeEnvelope(bytes).map((item) => [...item]),
      items.map((item) => [...item]),
    );
    assert.deepEqual(decodeEnvelope(encodeEnvelope([])), []);
  });

  it('ignores bytes after the end marker, as Curator does', () => {
    const bytes = Buffer.concat([encodeEnvelope([Buffer.from('a')]), Buffer.from([9, 9])]);
    assert.deepEqual(decodeEnvelope(bytes), [Buffer.from('a')]);
  });

  it('refuses what Curator refuses, saying what is wrong', () => {
    const cases: [string, RegExp][] = [
      ['', /ends early: the version/],
      ['00010002' + '02', /wrong envelope version 0x00010002/],
      ['00010001' + '07', /unknown opcode 7/],
      ['00010001' + '01' + 'ffffffff', /negative item length -1/],
      ['00010001' + '01' + '00000005' + '6869', /ends early: item 0 needs 5 bytes/],
      ['00010001' + '01' + '00000002' + '6869', /ends early: an opcode/],
    ];
    for (const [hex, message] of cases) {
      assert.throws(
        () => decodeEnvelope(Buffer.from(hex, 'hex')),
        (error: unknown) =>
          error instanceof CorruptEnvelopeError &&
          error.code === 'CORRUPT_ENVELOPE' &&
          message.test(error.message),
      );
    }
  });
});

describe('serializers', () => {
  it('bytes pass through; other values get a message naming the serializers', () => {
    assert.deepEqual(bytesSerializer.serialize(Buffer.from('x')), Buffer.from('x'));
    assert.throws(
      () => bytesSerializer.serialize('text' as unknown as Buffer),
      (error: unknown) =>
        isInvalidArgument(error) &&
        /got a string: this queue has no serializer/.test(String(error)),
    );
  });

  it('strings are UTF-8 and JSON values are UTF-8 JSON; what has no JSON form is refused', () => {
    const strings = stringSerializer();
    assert.equal(strings.deserialize(Buffer.from(strings.serialize('é'))), 'é');
    const json = jsonSerializer<{ a: number[] }>();
    assert.equal(Buffer.from(json.serialize({ a: [1] })).toString(), '{"a":[1]}');
    assert.deepEqual(json.deserialize(Buffer.from('{"a":[2]}')), { a: [2] });
    assert.throws(() => jsonSerializer().serialize(undefined), /no JSON form/);
    assert.throws(() => strings.serialize(5 as unknown as string), /must be a string/);
  });
});

describe('node names', () => {
  it('sorts items by sequence, wrap-aware, and sets foreign names apart', () => {
    const { items, foreign } = sortItems(
      [
        'queue-0000000010',
        'qn-0000000001',
        'queue-0000000002',
        'queue--2147483648',
        'queue-2147483647',
        'x',
      ],
      'queue-',
    );
    // Wrap-aware: the counter after 2147483647 is -2147483648, and it comes after.
    assert.deepEqual(items, [
      'queue-0000000002',
      'queue-0000000010',
      'queue-2147483647',
      'queue--2147483648',
    ]);
    assert.deepEqual(foreign, ['qn-0000000001', 'x']);
  });

  it('recognises the nodes of other Curator recipes', () => {
    assert.equal(recipeOfNode('qn-0000000001'), 'SimpleDistributedQueue');
    assert.equal(recipeOfNode('queue-0000000001'), 'DistributedQueue');
    assert.equal(
      recipeOfNode('_c_53345f98-9423-4e0c-a7b5-9f819e3ec2e1-lock-0000000004'),
      'InterProcessMutex or LeaderSelector',
    );
    assert.equal(recipeOfNode('__READ__0000000001'), 'InterProcessReadWriteLock');
    assert.equal(
      recipeOfNode('_c_53345f98-9423-4e0c-a7b5-9f819e3ec2e1-__WRIT__0000000001'),
      'InterProcessReadWriteLock',
    );
    assert.equal(recipeOfNode('latch-0000000003'), 'LeaderLatch');
    assert.equal(recipeOfNode('leases'), 'InterProcessSemaphoreV2');
    assert.equal(recipeOfNode('ready'), 'DistributedDoubleBarrier');
    assert.equal(recipeOfNode('notes'), undefined);
  });
});
