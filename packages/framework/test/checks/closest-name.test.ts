import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closestName, editDistance } from '../../src/checks/closest-name.js';

const FRAMEWORK = ['connectString', 'retryPolicy', 'sessionTimeoutMs', 'connectionTimeoutMs'];

describe('closestName', () => {
  it('suggests the option a typo misspells: a letter missing, extra, wrong or swapped', () => {
    for (const [typed, known, meant] of [
      ['conectString', FRAMEWORK, 'connectString'],
      ['connnectString', FRAMEWORK, 'connectString'],
      ['retryPolicey', FRAMEWORK, 'retryPolicy'],
      ['sginal', ['timeoutMs', 'signal'], 'signal'],
      ['lokData', ['lockData', 'pipelineRelease'], 'lockData'],
      ['serialiser', ['basePath', 'serializer'], 'serializer'],
    ] as const) {
      assert.equal(closestName(typed, known), meant, typed);
    }
  });

  it('ignores case, and takes one name starting with the other', () => {
    assert.equal(closestName('lockdata', ['lockData']), 'lockData');
    assert.equal(closestName('CONNECTSTRING', FRAMEWORK), 'connectString');
    assert.equal(closestName('sessionTimeout', FRAMEWORK), 'sessionTimeoutMs');
    assert.equal(closestName('timeout', ['timeoutMs', 'signal']), 'timeoutMs');
    assert.equal(closestName('pipeline', ['lockData', 'pipelineRelease']), 'pipelineRelease');
    assert.equal(closestName('maxLockTime', ['maxLockTimeMs']), 'maxLockTimeMs');
  });

  it('picks the nearest of several close names', () => {
    assert.equal(closestName('connectionTimeoutM', FRAMEWORK), 'connectionTimeoutMs');
    assert.equal(closestName('connectTimeoutMs', FRAMEWORK), 'connectionTimeoutMs');
  });

  it('suggests nothing for far-off names, short prefixes or an empty list', () => {
    for (const [typed, known] of [
      ['frobnicate', FRAMEWORK],
      ['sessionTimeout', ['lockData', 'pipelineRelease']],
      ['host', FRAMEWORK],
      ['con', FRAMEWORK],
      ['id', ['ip6', 'mode']],
      ['lockData', []],
    ] as const) {
      assert.equal(closestName(typed, known), undefined, typed);
    }
  });
});

describe('editDistance', () => {
  it('counts inserts, deletes, substitutions and adjacent swaps as one edit each', () => {
    assert.equal(editDistance('', ''), 0);
    assert.equal(editDistance('abc', ''), 3);
    assert.equal(editDistance('conect', 'connect'), 1);
    assert.equal(editDistance('signal', 'sginal'), 1);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('ab', 'ba'), 1);
    assert.equal(editDistance('ca', 'abc'), 3);
  });
});
