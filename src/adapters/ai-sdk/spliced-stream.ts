/**
 * One stream made of a turn's rounds, as `hw.streamText` returns it: `drive` writes every round's
 * parts into the controller and settles with the failure that ended the turn (or `undefined`);
 * the result's promises (`text`, `steps`, …) settle once the stream has ended, and reject with
 * that failure. As the AI SDK does, a failure is an `error` part and the stream ends.
 */
import { errorText } from './ai-sdk-turn.ts';

/** The spliced stream, its text-only view, and the turn's settling. */
export interface SplicedStream<Part> {
  readonly fullStream: ReadableStream<Part>;
  readonly textStream: ReadableStream<string>;
  /** A promise of `value()` once the turn ended; it rejects with the turn's failure. */
  after<T>(value: () => T): Promise<T>;
  /** Reads the stream to its end and waits for the turn (the text view is cancelled). */
  consume(): Promise<void>;
}

/**
 * Splices the parts `drive` writes into one stream (see the module comment). `drive` throwing is
 * a failure it did not stream: it is written as an `error` part. `textOf` picks the text of a
 * text part for `textStream`.
 */
export function spliceStream<Part>(
  drive: (controller: ReadableStreamDefaultController<Part>) => Promise<unknown>,
  errorPart: (error: unknown) => Part,
  textOf: (part: Part) => string | undefined,
): SplicedStream<Part> {
  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may await a promise of the result: the rejection is reported there, never unhandled.
  done.catch(() => undefined);
  const source = new ReadableStream<Part>({
    start: (controller) => {
      const fail = (error: unknown): void => {
        controller.close();
        settle.reject(error instanceof Error ? error : new Error(errorText(error)));
      };
      let driven: Promise<unknown>;
      try {
        driven = drive(controller);
      } catch (error) {
        driven = Promise.reject(error instanceof Error ? error : new Error(errorText(error)));
      }
      driven.then(
        (failure) => {
          if (failure === undefined) {
            controller.close();
            settle.resolve();
          } else fail(failure);
        },
        (error: unknown) => {
          controller.enqueue(errorPart(error));
          fail(error);
        },
      );
    },
  });
  const [fullStream, forText] = source.tee();
  const textStream = forText.pipeThrough(
    new TransformStream<Part, string>({
      transform(part, controller) {
        const text = textOf(part);
        if (text !== undefined) controller.enqueue(text);
      },
    }),
  );
  return {
    fullStream,
    textStream,
    after<T>(value: () => T): Promise<T> {
      const promise = done.then(value);
      promise.catch(() => undefined);
      return promise;
    },
    async consume() {
      // The text branch is not read: cancel it so the tee does not buffer it.
      await textStream.cancel().catch(() => undefined);
      for await (const _part of fullStream) {
        // drained
      }
      await done;
    },
  };
}
