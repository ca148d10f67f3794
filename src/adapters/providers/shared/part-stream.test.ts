import { describe, expect, it } from 'vitest';
import type { ModelStreamPart } from '../../../content/index.ts';
import { partStream, type PartSource } from './part-stream.ts';

/** An event stream that logs what is asked of it; `fail` makes its `n`th `next()` reject. */
function events(values: readonly string[], options: { failAt?: number } = {}) {
  const log: string[] = [];
  let index = 0;
  const iterator: AsyncIterator<string> = {
    next: () => {
      log.push('next');
      if (options.failAt === index) return Promise.reject(new Error('connection reset'));
      const value = values[index++];
      return Promise.resolve(
        value === undefined ? { done: true, value: undefined } : { done: false, value },
      );
    },
    return: () => {
      log.push('return');
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return { log, iterable: { [Symbol.asyncIterator]: () => iterator } };
}

const finish: ModelStreamPart = {
  type: 'finish',
  response: { content: { speaker: 'ai', blocks: [] } },
};

/** A source over `stream`: events starting with "skip" yield nothing, the rest a text delta. */
function source(
  stream: AsyncIterable<string>,
  log: string[],
  overrides: Partial<PartSource<string>> = {},
): PartSource<string> {
  return {
    open: () => {
      log.push('open');
      return Promise.resolve(stream);
    },
    accept: (event) => (event.startsWith('skip') ? undefined : { type: 'text-delta', text: event }),
    end: () => finish,
    fail: (error) => new Error(`mapped: ${(error as Error).message}`),
    ...overrides,
  };
}

async function drain(iterable: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of iterable) parts.push(part);
  return parts;
}

describe('partStream', () => {
  it('yields one part per event that has one, in order, then the finish part, then is done', async () => {
    const { log, iterable } = events(['a', 'skip-1', 'b', 'skip-2', 'skip-3', 'c']);
    const stream = partStream(source(iterable, log));
    expect(await drain(stream)).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'text-delta', text: 'c' },
      finish,
    ]);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(log.filter((entry) => entry === 'open')).toHaveLength(1);
  });

  it('opens the provider stream on the first next(), not when created', async () => {
    const { log, iterable } = events(['a']);
    const stream = partStream(source(iterable, log));
    expect(log).toEqual([]);
    await stream.next();
    expect(log).toEqual(['open', 'next']);
  });

  it('rejects through fail when opening fails, and is done afterwards', async () => {
    const log: string[] = [];
    const stream = partStream(
      source(events([]).iterable, log, {
        open: () => Promise.reject(new Error('401 unauthorized')),
      }),
    );
    await expect(stream.next()).rejects.toThrow('mapped: 401 unauthorized');
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('rejects through fail when opening throws synchronously', async () => {
    const stream = partStream(
      source(events([]).iterable, [], {
        open: () => {
          throw new Error('bad request shape');
        },
      }),
    );
    await expect(stream.next()).rejects.toThrow('mapped: bad request shape');
  });

  it('keeps the parts before a stream failure and rejects through fail at it', async () => {
    const { log, iterable } = events(['a', 'b', 'c'], { failAt: 2 });
    const stream = partStream(source(iterable, log));
    const parts: ModelStreamPart[] = [];
    const failure = (async () => {
      for await (const part of stream) parts.push(part);
    })();
    await expect(failure).rejects.toThrow('mapped: connection reset');
    expect(parts).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
    ]);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('rejects through fail when accept throws', async () => {
    const { log, iterable } = events(['a']);
    const stream = partStream(
      source(iterable, log, {
        accept: () => {
          throw new Error('unexpected event shape');
        },
      }),
    );
    await expect(stream.next()).rejects.toThrow('mapped: unexpected event shape');
  });

  it('rejects with what end throws as it is (a stream cut short), not through fail', async () => {
    const { log, iterable } = events(['a']);
    const cut = new Error('the stream ended before its last event');
    const stream = partStream(
      source(iterable, log, {
        end: () => {
          throw cut;
        },
      }),
    );
    expect(await stream.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'a' } });
    await expect(stream.next()).rejects.toBe(cut);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('closes the provider stream when the consumer stops early', async () => {
    const { log, iterable } = events(['a', 'b', 'c']);
    const stream = partStream(source(iterable, log));
    for await (const part of stream) {
      expect(part).toEqual({ type: 'text-delta', text: 'a' });
      break;
    }
    expect(log).toEqual(['open', 'next', 'return']);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('closes a stream that finishes opening after return() and yields nothing from it', async () => {
    const { log, iterable } = events(['a']);
    let opened: (value: AsyncIterable<string>) => void = () => undefined;
    const stream = partStream(
      source(iterable, log, {
        open: () => new Promise<AsyncIterable<string>>((resolve) => (opened = resolve)),
      }),
    );
    const first = stream.next();
    await stream.return();
    opened(iterable);
    expect(await first).toEqual({ done: true, value: undefined });
    expect(log).toEqual(['return']);
  });

  it('answers a pending next() done when return() closes the stream under it and the read fails', async () => {
    const log: string[] = [];
    let fail: (error: Error) => void = () => undefined;
    let reading: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (reading = resolve));
    const hanging: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: () =>
          new Promise<IteratorResult<string>>((_, reject) => {
            fail = reject;
            log.push('next');
            reading();
          }),
        return: () => {
          log.push('return');
          fail(new Error('aborted by the client'));
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
    const stream = partStream(source(hanging, log));
    const pending = stream.next();
    await read; // the provider's stream is open and a read is under way
    await stream.return();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(log).toEqual(['open', 'next', 'return']);
  });

  it('answers next() calls made while one is pending in order', async () => {
    const { log, iterable } = events(['a', 'skip', 'b', 'c']);
    const stream = partStream(source(iterable, log));
    const answers = await Promise.all([stream.next(), stream.next(), stream.next(), stream.next()]);
    expect(answers).toEqual([
      { done: false, value: { type: 'text-delta', text: 'a' } },
      { done: false, value: { type: 'text-delta', text: 'b' } },
      { done: false, value: { type: 'text-delta', text: 'c' } },
      { done: false, value: finish },
    ]);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });
});
