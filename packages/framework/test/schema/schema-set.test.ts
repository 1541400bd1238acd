import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { describe, it } from 'node:test';
import { Schema } from '../../src/schema/schema.js';
import { SchemaSet } from '../../src/schema/schema-set.js';
import { SchemaViolationError } from '../../src/errors/schema-violation-error.js';
import { isInvalidArgument, isSchemaViolation } from '../../src/errors/predicates.js';
import { OPEN_ACL_UNSAFE } from '../../src/zk/zookeeper-types.js';

const EMPTY = Buffer.alloc(0);

function violation(run: () => void): SchemaViolationError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof SchemaViolationError, String(error));
    assert.ok(isSchemaViolation(error));
    return error;
  }
  assert.fail('expected a SchemaViolationError');
}

describe('Schema and SchemaSet', () => {
  it('an exact path takes precedence over patterns; then the first matching pattern; then the default', () => {
    const set = new SchemaSet([
      { name: 'any-a', pathPattern: /\/a\/.*/ },
      { name: 'a-x-pattern', pathPattern: /\/a\/x/ },
      { name: 'a-x', path: '/a/x' },
    ]);
    assert.equal(set.getSchema('/a/x').name, 'a-x');
    assert.equal(set.getSchema('/a/y').name, 'any-a');
    assert.equal(set.getSchema('/b').name, '__default__');
    assert.equal(set.getNamedSchema('a-x')?.path, '/a/x');
    assert.equal(set.getNamedSchema('nope'), undefined);
  });

  it('a pattern must match the whole path, as Java matches() does', () => {
    const set = new SchemaSet([{ name: 'a-or-ab', pathPattern: /\/a|\/ab/ }], {
      useDefaultSchema: false,
    });
    assert.equal(set.getSchema('/a').name, 'a-or-ab');
    assert.equal(set.getSchema('/ab').name, 'a-or-ab');
    const error = violation(() => set.getSchema('/abc'));
    assert.equal(error.rule, 'schema');
    assert.equal(error.schemaName, undefined);
    assert.equal(error.violation, 'No schema found for: /abc');
    // A global pattern's lastIndex never leaks between checks.
    const global = new SchemaSet([{ pathPattern: /\/g\/\d+/g }], { useDefaultSchema: false });
    for (let i = 0; i < 3; i++) assert.doesNotThrow(() => global.getSchema('/g/12'));
  });

  it("Curator's create rules: ephemeral and sequential CAN, MUST, CANNOT", () => {
    const schema = new Schema({
      name: 'locks',
      pathPattern: /\/locks\/.*/,
      ephemeral: 'MUST',
      sequential: 'MUST',
    });
    assert.doesNotThrow(() =>
      schema.validateCreate('EPHEMERAL_SEQUENTIAL', '/locks/l-', EMPTY, OPEN_ACL_UNSAFE),
    );
    const persistent = violation(() =>
      schema.validateCreate('PERSISTENT_SEQUENTIAL', '/locks/l-', EMPTY, OPEN_ACL_UNSAFE),
    );
    assert.equal(persistent.rule, 'ephemeral');
    assert.equal(persistent.violation, 'Must be ephemeral');
    assert.equal(persistent.path, '/locks/l-');
    assert.match(
      persistent.message,
      /^SCHEMA_VIOLATION: \/locks\/l- - Must be ephemeral \(schema 'locks'\)$/,
    );
    assert.equal(
      violation(() => schema.validateCreate('EPHEMERAL', '/locks/l', EMPTY, OPEN_ACL_UNSAFE))
        .violation,
      'Must be sequential',
    );
    const never = new Schema({ path: '/c', ephemeral: 'CANNOT', sequential: 'CANNOT' });
    assert.equal(
      violation(() => never.validateCreate('EPHEMERAL', '/c', EMPTY, OPEN_ACL_UNSAFE)).violation,
      'Cannot be ephemeral',
    );
    assert.equal(
      violation(() => never.validateCreate('PERSISTENT_SEQUENTIAL', '/c', EMPTY, OPEN_ACL_UNSAFE))
        .violation,
      'Cannot be sequential',
    );
    // CONTAINER and TTL nodes are neither ephemeral nor sequential (unless _SEQUENTIAL_).
    assert.doesNotThrow(() => never.validateCreate('CONTAINER', '/c', EMPTY, OPEN_ACL_UNSAFE));
  });

  it('watched, canBeDeleted and the data validator (a throw is a violation with the throw as cause)', () => {
    const schema = new Schema({
      path: '/w',
      watched: 'MUST',
      canBeDeleted: false,
      dataValidator: ({ data }) => {
        if (data?.toString() === 'boom') throw new Error('boom');
        return data === undefined || data.length < 3;
      },
    });
    assert.equal(violation(() => schema.validateWatch('/w', false)).violation, 'Must be watched');
    assert.doesNotThrow(() => schema.validateWatch('/w', true));
    const hidden = new Schema({ path: '/h', watched: 'CANNOT' });
    assert.equal(violation(() => hidden.validateWatch('/h', true)).rule, 'watched');
    assert.equal(violation(() => schema.validateDelete('/w')).rule, 'canBeDeleted');
    assert.doesNotThrow(() => schema.validateGeneral('/w', Buffer.from('ok'), undefined));
    assert.equal(
      violation(() => schema.validateGeneral('/w', Buffer.from('long'), undefined)).violation,
      'Data is not valid',
    );
    const thrown = violation(() => schema.validateGeneral('/w', Buffer.from('boom'), undefined));
    assert.equal((thrown.cause as Error).message, 'boom');
  });

  it('defaults are "anything goes", as SchemaBuilder; getDefaultSchemaSet allows everything', () => {
    const schema = new Schema({ path: '/x' });
    assert.deepEqual(
      [schema.ephemeral, schema.sequential, schema.watched, schema.canBeDeleted],
      ['CAN', 'CAN', 'CAN', true],
    );
    assert.match(schema.name, /^[0-9a-f-]{36}$/);
    const set = SchemaSet.getDefaultSchemaSet();
    assert.equal(set.allowsEverything, true);
    assert.equal(set.toDocumentation(), 'Default schema');
    assert.equal(new SchemaSet([schema]).allowsEverything, false);
    assert.equal(new SchemaSet([], { useDefaultSchema: false }).allowsEverything, false);
    assert.match(new SchemaSet([schema]).toDocumentation(), /Path: \/x\nDoc: \n/);
  });

  it('bad definitions are InvalidArgumentErrors', () => {
    const bad: unknown[] = [
      {},
      { path: '/a', pathPattern: /a/ },
      { path: 'a' },
      { pathPattern: '/a' },
      { path: '/a', ephemeral: 'SOMETIMES' },
      { path: '/a', canBeDeleted: 'no' },
      { path: '/a', dataValidator: 'yes' },
      { path: '/a', wacthed: 'MUST' },
      { path: '/a', name: '' },
    ];
    for (const options of bad) {
      assert.throws(
        () => new Schema(options as never),
        (error) => isInvalidArgument(error),
        JSON.stringify(options),
      );
    }
    assert.throws(
      () =>
        new SchemaSet([
          { name: 'n', path: '/a' },
          { name: 'n', path: '/b' },
        ]),
      /two schemas are named 'n'/,
    );
    assert.throws(
      () => new SchemaSet([{ path: '/a' }, { path: '/a' }]),
      /two schemas have the path/,
    );
    assert.throws(
      () => new SchemaSet([], { useDefaultSchema: 'no' as never }),
      (e) => isInvalidArgument(e),
    );
  });
});
