import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../src/errors/zookeeper-error-classes.js';
import { checkRecipeOptions } from '../../src/recipe-support/option-checks.js';

describe('checkRecipeOptions', () => {
  const known = ['lockData', 'pipelineRelease'];

  it('accepts undefined, {}, known options and unknown ones set to undefined', () => {
    checkRecipeOptions('Mutex', undefined, known);
    checkRecipeOptions('Mutex', {}, known);
    checkRecipeOptions('Mutex', { lockData: Buffer.alloc(1), pipelineRelease: true }, known);
    checkRecipeOptions('Mutex', { other: undefined }, known);
  });

  it('names the recipe, the option and the closest known one (case, prefix, a typo)', () => {
    for (const [option, near] of [
      ['lockdata', 'lockData'],
      ['pipeline', 'pipelineRelease'],
      ['lokData', 'lockData'],
    ] as const) {
      assert.throws(
        () => checkRecipeOptions('Mutex', { [option]: 1 }, known),
        (error: unknown) =>
          error instanceof InvalidArgumentError &&
          error.message.includes(`Mutex: unknown option '${option}' (did you mean '${near}'?)`),
      );
    }
    assert.throws(
      () => checkRecipeOptions('Mutex', { sessionTimeout: 1 }, known),
      /unknown option 'sessionTimeout'; known: lockData, pipelineRelease/,
    );
  });

  it('refuses options that are not a plain object', () => {
    for (const options of [null, 3, 'x', []]) {
      assert.throws(() => checkRecipeOptions('Mutex', options, known), InvalidArgumentError);
    }
  });
});
