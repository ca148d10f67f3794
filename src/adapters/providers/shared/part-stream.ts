/**
 * A provider's event stream as neutral stream parts, without an async generator in between.
 *
 * An `async function*` that re-yields what it reads from the SDK's stream costs a suspension, an
 * `await` of each yielded value and the generator's request queue per event: over a 2,000-event
 * Anthropic stream served from loopback, a pass-through generator alone measured ~1.15× iterating
 * the SDK's stream directly, which put the adapter over its 1.1× bound. Here each part costs one
 * `then` on the SDK iterator's own promise.
 *
 * It behaves as the generator it replaces: nothing is requested before the first `next()`; a
 * failure to open or of the stream, and a throw from `accept`, reject through `fail`; what `end`
 * throws (a stream cut short, an abort) rejects as it is; after the last part, an error or
 * `return()` it is done; `return()` closes the provider's stream (which aborts its request);
 * calls of `next()` made while one is pending are answered in order. One difference: a `next()`
 * still pending when `return()` closes the stream is answered done, where a generator would
 * reject it with the abort that closing caused.
 */
import type { ModelStreamPart } from '../../../content/index.ts';

export interface PartSource<Event> {
  /** Opens the provider's stream (sends the request). Called on the first `next()`. */
  readonly open: () => Promise<AsyncIterable<Event>>;
  /** The part one event yields, if any. */
  readonly accept: (event: Event) => ModelStreamPart | undefined;
  /** The stream ended: the last part (`finish`); throws when the answer is not complete. */
  readonly end: () => ModelStreamPart;
  /** The error to reject with for a failure to open, of the stream, or of `accept`. */
  readonly fail: (error: unknown) => unknown;
}

/** The parts of a provider stream; `return()` closes the provider's stream. */
export interface PartStreamIterator extends AsyncIterableIterator<
  ModelStreamPart,
  undefined,
  undefined
> {
  return(): Promise<IteratorResult<ModelStreamPart, undefined>>;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

class PartStream<Event> implements PartStreamIterator {
  readonly #source: PartSource<Event>;
  #events: AsyncIterator<Event> | undefined;
  #done = false;
  /** A `next()` is being answered; later calls wait for `#tail`. */
  #busy = false;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(source: PartSource<Event>) {
    this.#source = source;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ModelStreamPart, undefined>> {
    let result: Promise<IteratorResult<ModelStreamPart, undefined>>;
    if (this.#busy) {
      const again = (): Promise<IteratorResult<ModelStreamPart, undefined>> => this.next();
      result = this.#tail.then(again, again);
    } else if (this.#done) {
      return Promise.resolve(DONE);
    } else {
      this.#busy = true;
      result = this.#pull();
    }
    this.#tail = result;
    return result;
  }

  async return(): Promise<IteratorResult<ModelStreamPart, undefined>> {
    const events = this.#events;
    this.#done = true;
    this.#events = undefined;
    if (events?.return !== undefined) await events.return();
    return DONE;
  }

  #pull(): Promise<IteratorResult<ModelStreamPart, undefined>> {
    const events = this.#events;
    if (events !== undefined) return events.next().then(this.#onEvent, this.#onError);
    let opening: Promise<AsyncIterable<Event>>;
    try {
      opening = this.#source.open();
    } catch (error) {
      opening = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return opening
      .then((iterable) => {
        const opened = iterable[Symbol.asyncIterator]();
        if (this.#done) {
          // Returned while opening: close what was opened.
          void opened.return?.();
          return { done: true, value: undefined } as IteratorResult<Event>;
        }
        this.#events = opened;
        return opened.next();
      })
      .then(this.#onEvent, this.#onError);
  }

  readonly #onEvent = (
    result: IteratorResult<Event>,
  ):
    | IteratorResult<ModelStreamPart, undefined>
    | Promise<IteratorResult<ModelStreamPart, undefined>> => {
    if (this.#done) {
      // Returned while this event was on its way.
      this.#busy = false;
      return DONE;
    }
    if (result.done === true) {
      this.#finish();
      return { value: this.#source.end(), done: false };
    }
    let part: ModelStreamPart | undefined;
    try {
      part = this.#source.accept(result.value);
    } catch (error) {
      this.#finish();
      throw this.#source.fail(error);
    }
    if (part === undefined) return this.#pull();
    this.#busy = false;
    return { value: part, done: false };
  };

  readonly #onError = (error: unknown): IteratorResult<ModelStreamPart, undefined> => {
    if (this.#done) {
      // Returned while this event was on its way: closing the stream is what made it fail.
      this.#busy = false;
      return DONE;
    }
    this.#finish();
    throw this.#source.fail(error);
  };

  /** The stream is over (ended or failed): later calls of `next()` are answered done. */
  #finish(): void {
    this.#done = true;
    this.#events = undefined;
    this.#busy = false;
  }
}

/** The parts of `source`'s stream, as an async iterable iterator (see the module comment). */
export function partStream<Event>(source: PartSource<Event>): PartStreamIterator {
  return new PartStream(source);
}
