import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidArgumentError } from '../../src/errors/zookeeper-error-classes.js';
import {
  booleanOption,
  checkFunction,
  checkListener,
  checkOptionsObject,
  checkRecipeOptions,
  checkSignalOptions,
  checkWaitOptions,
  signalOption,
} from '../../src/checks/option-checks.js';

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

describe('checkOptionsObject', () => {
  it('accepts undefined and plain objects', () => {
    checkOptionsObject(undefined);
    checkOptionsObject({});
    checkOptionsObject({ signal: undefined }, 'promotedToLock');
  });

  it('refuses null, an array and primitives, naming the argument and the value', () => {
    for (const [value, shown] of [
      [null, 'null'],
      [[], 'an array'],
      [3, '3'],
      ['x', '"x" (a string)'],
    ] as const) {
      assert.throws(
        () => checkOptionsObject(value),
        (error: unknown) =>
          error instanceof InvalidArgumentError &&
          error.detail === `options must be an object; got ${shown}`,
      );
    }
    assert.throws(
      () => checkOptionsObject([], 'promotedToLock'),
      (error: unknown) =>
        error instanceof InvalidArgumentError &&
        error.detail === 'promotedToLock must be an object; got an array',
    );
  });
});

describe('booleanOption and signalOption', () => {
  it('pass valid values, fall back on undefined and name what was wrong', () => {
    assert.equal(booleanOption('autoRequeue', undefined, false), false);
    assert.equal(booleanOption('autoRequeue', true, false), true);
    assert.throws(
      () => booleanOption('autoRequeue', 'yes', false),
      (error: unknown) =>
        error instanceof InvalidArgumentError &&
        error.detail === 'autoRequeue must be a boolean; got "yes" (a string)',
    );
    const signal = new AbortController().signal;
    assert.equal(signalOption(signal), signal);
    assert.equal(signalOption(undefined), undefined);
    assert.throws(
      () => signalOption({ aborted: false }),
      (error: unknown) =>
        error instanceof InvalidArgumentError &&
        error.detail === 'signal must be an AbortSignal; got a value of type object',
    );
  });
});

describe('checkSignalOptions', () => {
  it('returns the signal of undefined, {} and { signal }', () => {
    const { signal } = new AbortController();
    assert.equal(checkSignalOptions(undefined), undefined);
    assert.equal(checkSignalOptions({}), undefined);
    assert.equal(checkSignalOptions({ signal }), signal);
  });

  it('refuses options that are not an object and a signal that is not an AbortSignal', () => {
    for (const bad of [null, 'fast', 42, [], { signal: 'abort' }, { signal: {} }, { sginal: 1 }]) {
      assert.throws(() => checkSignalOptions(bad), InvalidArgumentError, JSON.stringify(bad));
    }
  });

  it('throws the reason of a signal aborted already', () => {
    const reason = new Error('stop');
    assert.throws(
      () => checkSignalOptions({ signal: AbortSignal.abort(reason) }),
      (error: unknown) => error === reason,
    );
  });
});

describe('checkWaitOptions', () => {
  it('passes undefined, {} and a timeout with a signal', () => {
    checkWaitOptions(undefined);
    checkWaitOptions({});
    checkWaitOptions({ timeoutMs: 0, signal: new AbortController().signal });
    checkWaitOptions({ timeoutMs: 2_147_483_647 });
  });

  it('refuses a non-object, a bad timeout and a signal that is not an AbortSignal', () => {
    const bad: unknown[] = [null, [], 42, { timeoutMs: -1 }, { timeoutMs: Number.NaN }];
    bad.push({ timeoutMs: Infinity }, { timeoutMs: '5' }, { timeoutMs: 2 ** 31 }, { signal: {} });
    bad.push({ timeout: 5 }, { timeoutMs: 5, other: true });
    for (const options of bad) {
      assert.throws(() => checkWaitOptions(options), InvalidArgumentError, JSON.stringify(options));
    }
  });
});

describe('checkFunction and checkListener', () => {
  it('pass functions of every kind', () => {
    for (const fn of [() => 1, () => Promise.resolve(1), function named() {}, class {}, Math.max]) {
      checkFunction('fn', fn);
      checkListener(fn);
    }
  });

  it('refuse anything else, naming the argument and the value', () => {
    for (const value of [undefined, null, 42, 'x', {}, [], true, Symbol('s'), 10n]) {
      assert.throws(() => checkFunction('runInFlow fn', value), InvalidArgumentError);
      assert.throws(() => checkListener(value), /listener must be a function; got /);
    }
    assert.throws(
      () => checkFunction('listener.stateChanged', 42),
      /listener\.stateChanged must be a function; got 42/,
    );
  });
});

describe('checkWaitOptions and checkSignalOptions given another key', () => {
  it('name it and the option meant, so a typo never means "no limit"', () => {
    assert.throws(
      () => checkWaitOptions({ timeout: 5000 }),
      (error: unknown) =>
        error instanceof InvalidArgumentError &&
        /unknown option 'timeout' \(did you mean 'timeoutMs'\?\)/.test(error.message),
    );
    assert.throws(
      () => checkSignalOptions({ timeoutMs: 5000 }),
      (error: unknown) =>
        error instanceof InvalidArgumentError && /unknown option 'timeoutMs'/.test(error.message),
    );
    // A key set to undefined is no option at all, as for the constructors.
    checkWaitOptions({ timeoutMs: 1, other: undefined });
  });
});
