// Which recipe-page programs may run side by side: the lanes of page-programs.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lanesOf, type Program } from './page-programs.js';

/** A program of one block whose code names `paths`. */
function program(file: string, ...paths: string[]): Program {
  const code = paths.map((path) => `new InterProcessMutex(client, '${path}');`).join('\n');
  return {
    page: 'docs/recipes/test.md',
    file,
    blocks: [{ lang: 'ts', line: 1, code, marker: '', note: '' }],
    isTest: false,
  };
}

const files = (lanes: Program[][]) => lanes.map((lane) => lane.map((p) => p.file));

describe('lanes of recipe-page programs', () => {
  it('keeps programs with unrelated paths apart', () => {
    const lanes = lanesOf([program('a', '/app/jobs'), program('b', '/app/jobs-locks')]);
    assert.deepEqual(files(lanes), [['a'], ['b']]);
  });

  it('puts a program with the same path, or one above or below it, in the same lane', () => {
    const lanes = lanesOf([
      program('a', '/services'),
      program('b', '/app/x'),
      program('c', '/services/api/node-1'),
      program('d', '/app/x'),
    ]);
    assert.deepEqual(files(lanes), [
      ['a', 'c'],
      ['b', 'd'],
    ]);
  });

  it('merges two lanes that a later program joins, in program order', () => {
    const lanes = lanesOf([
      program('a', '/config/flags'),
      program('b', '/services/api'),
      program('c', '/other'),
      program('d', '/config', '/services'),
    ]);
    assert.deepEqual(files(lanes), [['c'], ['a', 'b', 'd']]);
  });

  it('gives a program that names no path a lane of its own', () => {
    assert.deepEqual(files(lanesOf([program('a'), program('b')])), [['a'], ['b']]);
  });
});
