import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Subject } from 'rxjs';
import type { RecipeError } from '../../src/recipe-support/report-recipe-failure.js';
import { EventDispatcher } from '../../src/recipe-support/event-dispatcher.js';
import { reportRecipeFailure } from '../../src/recipe-support/report-recipe-failure.js';
import { REPORT_UNHANDLED, type FrameworkClient } from '../../src/client/framework-client.js';

/** Stands in for the client: records what reached its failure report. */
function fakeClient(): FrameworkClient & { reported: RecipeError[] } {
  const reported: RecipeError[] = [];
  const report = (error: unknown, context: string): number => reported.push({ error, context });
  return { reported, [REPORT_UNHANDLED]: report } as unknown as FrameworkClient & {
    reported: RecipeError[];
  };
}

describe('reportRecipeFailure', () => {
  it('hands the failure to the client and to the stream, the same object with the same context', () => {
    const client = fakeClient();
    const stream: RecipeError[] = [];
    const error = new Error('read failed');
    reportRecipeFailure(client, { next: (e) => stream.push(e) }, error, 'read /a');
    reportRecipeFailure(client, undefined, error, 'read /b');
    assert.deepEqual(client.reported, [
      { error, context: 'read /a' },
      { error, context: 'read /b' },
    ]);
    assert.deepEqual(stream, [{ error, context: 'read /a' }]);
  });
});

describe('EventDispatcher', () => {
  it('a throwing listener reaches the client once and the errors stream; after close only the client', async () => {
    const client = fakeClient();
    const dispatcher = new EventDispatcher(new Subject<string>(), client, 'test listener');
    const stream: RecipeError[] = [];
    dispatcher.errors.subscribe((e) => stream.push(e));
    const thrown = new Error('listener bug');
    dispatcher.add(() => {
      throw thrown;
    });
    dispatcher.emit('x');
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    assert.deepEqual(client.reported, [{ error: thrown, context: 'test listener' }]);
    assert.deepEqual(stream, [{ error: thrown, context: 'test listener' }]);

    // forward(): a failure an inner recipe reported to the client already.
    const inner = new Error('inner');
    dispatcher.forward(inner, 'inner read');
    assert.equal(client.reported.length, 1);
    assert.deepEqual(stream.at(-1), { error: inner, context: 'inner read' });

    dispatcher.close();
    const late = new Error('late');
    dispatcher.report(late, 'background read');
    assert.deepEqual(client.reported.at(-1), { error: late, context: 'background read' });
    assert.equal(stream.length, 2);
  });
});
