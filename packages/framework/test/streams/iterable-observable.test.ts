import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BehaviorSubject, Observable, Subject } from 'rxjs';
import { iterableObservable } from '../../src/streams/iterable-observable.js';

describe('iterableObservable', () => {
  it('gives values in order, buffering those that arrive while the loop body runs, and ends on complete', async () => {
    const subject = new Subject<number>();
    const stream = iterableObservable(subject.asObservable());
    const seen: number[] = [];
    const loop = (async () => {
      for await (const value of stream) {
        seen.push(value);
        if (value === 1) {
          // Three more arrive before the loop asks again.
          subject.next(2);
          subject.next(3);
          subject.next(4);
        }
      }
      return 'ended';
    })();
    subject.next(1);
    await Promise.resolve();
    subject.complete();
    assert.equal(await loop, 'ended');
    assert.deepEqual(seen, [1, 2, 3, 4]);
  });

  it('replays the current value of a BehaviorSubject first', async () => {
    const states = new BehaviorSubject('CONNECTED');
    for await (const state of iterableObservable(states)) {
      assert.equal(state, 'CONNECTED');
      break;
    }
    assert.equal(states.observed, false, 'break unsubscribed');
  });

  it('throws the stream error after the values buffered before it, then is done', async () => {
    const failure = new Error('boom');
    const source = new Observable<number>((subscriber) => {
      subscriber.next(1);
      subscriber.next(2);
      subscriber.error(failure);
    });
    const iterator = iterableObservable(source)[Symbol.asyncIterator]();
    assert.deepEqual(await iterator.next(), { done: false, value: 1 });
    assert.deepEqual(await iterator.next(), { done: false, value: 2 });
    await assert.rejects(iterator.next(), failure);
    assert.deepEqual(await iterator.next(), { done: true, value: undefined });
  });

  it('rejects a waiting next() when the stream fails while it waits', async () => {
    const subject = new Subject<number>();
    const iterator = iterableObservable(subject.asObservable())[Symbol.asyncIterator]();
    const waiting = iterator.next();
    subject.error(new TypeError('late'));
    await assert.rejects(waiting, TypeError);
  });

  it('return() unsubscribes, drops the buffer and ends every waiting next()', async () => {
    const subject = new Subject<number>();
    const iterator = iterableObservable(subject.asObservable())[Symbol.asyncIterator]();
    const first = iterator.next();
    const second = iterator.next();
    assert.equal(subject.observed, true);
    await iterator.return!();
    assert.equal(subject.observed, false);
    assert.deepEqual(await first, { done: true, value: undefined });
    assert.deepEqual(await second, { done: true, value: undefined });
    subject.next(5);
    assert.deepEqual(await iterator.next(), { done: true, value: undefined });
  });

  it('a throw inside the loop unsubscribes', async () => {
    const subject = new BehaviorSubject(0);
    await assert.rejects(async () => {
      for await (const value of iterableObservable(subject.asObservable())) {
        throw new RangeError(`stop at ${value}`);
      }
    }, RangeError);
    assert.equal(subject.observed, false);
  });

  it('each loop is its own subscription; the stream stays an rxjs Observable', async () => {
    const subject = new Subject<string>();
    const stream = iterableObservable(subject.asObservable());
    assert.equal(iterableObservable(stream), stream, 'wrapping twice is the same object');
    const a = stream[Symbol.asyncIterator]();
    const b = stream[Symbol.asyncIterator]();
    const viaRx: string[] = [];
    const subscription = stream.subscribe((value) => viaRx.push(value));
    subject.next('x');
    assert.deepEqual(await a.next(), { done: false, value: 'x' });
    assert.deepEqual(await b.next(), { done: false, value: 'x' });
    assert.deepEqual(viaRx, ['x']);
    subscription.unsubscribe();
    await a.return!();
    await b.return!();
    assert.equal(subject.observed, false);
  });
});
