import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverJvmFlags } from '../src/zoo-cfg.js';

describe('serverJvmFlags', () => {
  it('turns the extended-types and container options into system properties, before jvmFlags', () => {
    assert.deepEqual(serverJvmFlags({}), []);
    assert.deepEqual(
      serverJvmFlags({
        extendedTypesEnabled: true,
        containerCheckIntervalMs: 100,
        containerMaxPerMinute: 60_000,
        jvmFlags: ['-Dzookeeper.enforceQuota=true'],
      }),
      [
        '-Dzookeeper.extendedTypesEnabled=true',
        '-Dznode.container.checkIntervalMs=100',
        '-Dznode.container.maxPerMinute=60000',
        '-Dzookeeper.enforceQuota=true',
      ],
    );
    assert.deepEqual(serverJvmFlags({ extendedTypesEnabled: false }), []);
  });

  it('refuses an interval or rate that is not a whole number >= 1', () => {
    assert.throws(() => serverJvmFlags({ containerCheckIntervalMs: 0 }), TypeError);
    assert.throws(() => serverJvmFlags({ containerMaxPerMinute: 1.5 }), TypeError);
  });
});
