import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';

import { isInvalidArgument } from '../../src/errors/predicates.js';
import {
  findProtectedNode,
  isProtectedName,
  PROTECTED_PREFIX,
  protectedNodeName,
  protectedPrefix,
  stripProtectedPrefix,
} from '../../src/paths/protected-name.js';

// The example in Curator's ProtectedUtils.toProtectedZNode documentation.
const uuid = '53345f98-9423-4e0c-a7b5-9f819e3ec2e1';
const curatorName = '_c_53345f98-9423-4e0c-a7b5-9f819e3ec2e1-name1';

describe('protected names', () => {
  it("produce Curator's exact bytes: _c_, the UUID, -, the name", () => {
    assert.equal(PROTECTED_PREFIX, '_c_');
    assert.equal(protectedPrefix(uuid), '_c_53345f98-9423-4e0c-a7b5-9f819e3ec2e1-');
    assert.equal(protectedNodeName(uuid, 'name1'), curatorName);
    assert.equal(protectedPrefix(randomUUID()).length, 40);
  });

  it('findProtectedNode finds the child our create made, including its sequence', () => {
    const ours = `${protectedNodeName(uuid, 'lock-')}0000000007`;
    const children = [
      'lock-0000000001',
      `${protectedNodeName(randomUUID(), 'lock-')}0000000005`,
      ours,
    ];
    assert.equal(findProtectedNode(children, uuid), ours);
    assert.equal(findProtectedNode(['lock-0000000001'], uuid), undefined);
    assert.equal(findProtectedNode([], uuid), undefined);
  });

  it('isProtectedName recognises the format and nothing else', () => {
    assert.equal(isProtectedName(curatorName), true);
    assert.equal(isProtectedName(curatorName.toUpperCase().replace('_C_', '_c_')), true);
    assert.equal(isProtectedName('name1'), false);
    // Curator requires a non-empty name after the prefix.
    assert.equal(isProtectedName(protectedPrefix(uuid)), false);
    assert.equal(isProtectedName('_c_53345f98-9423-4e0c-a7b5-9f819e3ec2e1_name1'), false);
    assert.equal(isProtectedName('_c_53345f98x9423-4e0c-a7b5-9f819e3ec2e1-name1'), false);
    assert.equal(isProtectedName('_d_53345f98-9423-4e0c-a7b5-9f819e3ec2e1-name1'), false);
  });

  it("stripProtectedPrefix removes the prefix, as Curator's normalize does", () => {
    assert.equal(stripProtectedPrefix(curatorName), 'name1');
    assert.equal(stripProtectedPrefix(`${curatorName}0000000003`), 'name10000000003');
    assert.equal(stripProtectedPrefix('lock-0000000003'), 'lock-0000000003');
  });

  it('rejects an id that is not a canonical UUID', () => {
    for (const bad of ['', 'abc', `${uuid}0`, uuid.replaceAll('-', '')]) {
      assert.throws(() => protectedNodeName(bad, 'x'), isInvalidArgument);
      assert.throws(() => findProtectedNode([], bad), isInvalidArgument);
    }
  });
});
