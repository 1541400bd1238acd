import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertSupportedNzcVersion } from '../../src/zk/nzc-version.js';

describe('assertSupportedNzcVersion', () => {
  it('accepts the 1.1.x line', () => {
    for (const version of ['1.1.0', '1.1.3', '1.1.12']) {
      assert.doesNotThrow(() => assertSupportedNzcVersion(version), version);
    }
  });

  it('refuses any other version with an error that names what it found', () => {
    for (const version of ['1.2.0', '2.0.0', '1.0.9', '1.1', '1.1.3-beta.1', '0.1.1']) {
      assert.throws(
        () => assertSupportedNzcVersion(version),
        new RegExp(
          `needs node-zookeeper-client 1\\.1\\.x .* found ${version.replace(/\./g, '\\.')};`,
        ),
      );
    }
  });
});
