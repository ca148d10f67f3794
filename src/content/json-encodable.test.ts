import { describe, expect, it } from 'vitest';
import { jsonEncodingProblem, MAX_JSON_DEPTH } from './json-encodable.ts';

function encodes(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

const cyclic: Record<string, unknown> = { name: 'loop' };
cyclic.self = cyclic;
const shared = { id: 1 };
const throwingGetter = {
  get broken(): never {
    throw new Error('getter failed');
  },
};

const values: readonly [string, unknown][] = [
  ['a string', 'text'],
  ['a number', 42],
  ['NaN', Number.NaN],
  ['null', null],
  ['undefined', undefined],
  ['a function', () => 1],
  ['a symbol', Symbol('s')],
  ['a plain object', { a: 1, b: [true, 'x', null] }],
  ['a Date (toJSON)', new Date(0)],
  ['a Map (encodes as {})', new Map([['k', 1n]])],
  ['the same object twice (no cycle)', { left: shared, right: shared, list: [shared, shared] }],
  ['a BigInt', 10n],
  ['a BigInt object', Object(10n)],
  ['a nested BigInt', { items: [{ size: 1 }, { size: 2n }] }],
  ['a cycle', cyclic],
  [
    'a cycle through an array',
    (() => {
      const list: unknown[] = [];
      list.push({ list });
      return list;
    })(),
  ],
  [
    'a toJSON that throws',
    {
      when: {
        toJSON: () => {
          throw new Error('no');
        },
      },
    },
  ],
  ['a toJSON that returns a BigInt', { when: { toJSON: () => 5n } }],
  ['a getter that throws', { value: throwingGetter }],
];

describe('jsonEncodingProblem', () => {
  it.each(values)('agrees with JSON.stringify on %s', (_name, value) => {
    expect(jsonEncodingProblem(value) === undefined).toBe(encodes(value));
  });

  it('names the path and the reason', () => {
    expect(jsonEncodingProblem({ items: [{ size: 1 }, { size: 2n }] })).toEqual({
      path: '$.items[1].size',
      reason: 'a BigInt, which JSON cannot encode',
    });
    expect(jsonEncodingProblem(cyclic)).toEqual({
      path: '$.self',
      reason: 'a reference back to an object that contains it (a cycle)',
    });
    expect(jsonEncodingProblem(3n)?.path).toBe('$');
    expect(
      jsonEncodingProblem({
        when: {
          toJSON: () => {
            throw new Error('no');
          },
        },
      }),
    ).toEqual({
      path: '$.when',
      reason: 'its toJSON() threw: no',
    });
    expect(jsonEncodingProblem({ value: throwingGetter })?.reason).toBe(
      'reading it threw: getter failed',
    );
  });

  it('calls toJSON with the key, as JSON.stringify does', () => {
    const keys: string[] = [];
    const probe = { toJSON: (key: string) => (keys.push(key), 1) };
    jsonEncodingProblem({ a: probe, list: [probe] });
    expect(keys).toEqual(['a', '0']);
  });

  it('reports nesting deeper than the limit, and walks the limit itself', () => {
    const nest = (depth: number): unknown => {
      let value: unknown = 'leaf';
      for (let level = 0; level < depth; level++) value = { next: value };
      return value;
    };
    expect(jsonEncodingProblem(nest(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonEncodingProblem(nest(MAX_JSON_DEPTH + 1))?.reason).toBe(
      `nested deeper than ${String(MAX_JSON_DEPTH)} levels`,
    );
  });
});
