import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonInstanceSerializer, ServiceType } from '../src/index.js';
import { JsonSyntaxError, readJson } from '@zkrecipes/framework/recipe-support';

// As Curator 5.4's JsonInstanceSerializer wrote it (docs/recipes/discovery.md; the interop test
// compares our bytes with Curator's for many more instances).
const CURATOR_BYTES =
  '{"name":"api","id":"api-1","address":"127.0.0.1","port":8080,"sslPort":8443,' +
  '"payload":{"@class":"java.util.LinkedHashMap","zone":"eu-1","weight":3,"tags":["a","b"]},' +
  '"registrationTimeUTC":1795508236903,"serviceType":"DYNAMIC","uriSpec":{"parts":[' +
  '{"value":"scheme","variable":true},{"value":"://","variable":false},' +
  '{"value":"address","variable":true},{"value":":","variable":false},' +
  '{"value":"port","variable":true}]}}';

describe('JsonInstanceSerializer', () => {
  it("reads Curator's JSON and writes the same bytes back", () => {
    const serializer = new JsonInstanceSerializer();
    const instance = serializer.deserialize(Buffer.from(CURATOR_BYTES));
    assert.equal(instance.name, 'api');
    assert.equal(instance.sslPort, 8443);
    assert.deepEqual(instance.payload, { zone: 'eu-1', weight: 3, tags: ['a', 'b'] });
    assert.equal(instance.serviceType, ServiceType.DYNAMIC);
    assert.equal(instance.enabled, true);
    assert.equal(instance.uriSpec?.toString(), '{scheme}://{address}:{port}');
    assert.equal(serializer.serialize(instance).toString(), CURATOR_BYTES);
    const withEnabled = new JsonInstanceSerializer({ compatibleMode: false });
    assert.equal(
      withEnabled.serialize(instance).toString(),
      `${CURATOR_BYTES.slice(0, -1)},"enabled":true}`,
    );
  });

  it('tolerates unknown fields and whitespace, reads enabled, keeps large integers exact', () => {
    const text =
      '{ "name" : "x", "id":"y", "future":{"a":[1,2]}, "enabled": false,\n' +
      ' "payload":{"big":12345678901234567890,"neg":-9007199254740993,"d":1.0E20,"s":"\\u00e9\\uD83D\\uDE00"},' +
      ' "registrationTimeUTC": 5 }';
    const instance = new JsonInstanceSerializer().deserialize(Buffer.from(text));
    assert.equal(instance.enabled, false);
    assert.equal(instance.address, undefined);
    assert.equal(instance.uriSpec, undefined);
    assert.deepEqual(instance.payload, {
      big: 12345678901234567890n,
      neg: -9007199254740993n,
      d: 1e20,
      s: 'é\u{1F600}',
    });
    assert.match(
      new JsonInstanceSerializer().serialize(instance).toString(),
      /"big":12345678901234567890,"neg":-9007199254740993,"d":1\.0E20,"s":"é\\uD83D\\uDE00"/,
    );
  });

  it('rejects what is not an instance', () => {
    const serializer = new JsonInstanceSerializer();
    for (const text of [
      '',
      '[]',
      '{"name":"x"',
      '{"name":"a/b","id":"c"}',
      '{"name":"x","id":"y","serviceType":"NOPE"}',
      '{"name":"x","id":"y","port":"80"}',
      '{"a":1}x',
    ]) {
      assert.throws(() => serializer.deserialize(Buffer.from(text)), /./, text);
    }
    assert.throws(() => readJson('{"a":01}'), JsonSyntaxError);
    // What a caller of deserialize can branch on: the class itself is not exported.
    assert.throws(
      () => serializer.deserialize(Buffer.from('{"name":')),
      (error: unknown) => (error as { code?: unknown }).code === 'JSON_SYNTAX',
    );
    assert.deepEqual(readJson('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":1}}'));
  });
});
