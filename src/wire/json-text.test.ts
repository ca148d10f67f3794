import { describe, expect, it } from 'vitest';
import { jsonTextDepthExceeds, jsonValueDepthExceeds, parseJsonText } from './json-text.ts';

describe('parseJsonText', () => {
  it.each([
    '{}',
    '[]',
    '{"a": [1, -2.5e3, true, false, null, "x\\n\\u0041"], "b": {"c": {}}}',
    '  "text"  ',
    '0',
    '{"timeout": 1e999}',
    '[[[[[[]]]]]]',
  ])('builds what JSON.parse builds for %j', (text) => {
    const result = parseJsonText(text);
    expect(result).toEqual({ ok: true, value: JSON.parse(text) as unknown, duplicates: [] });
  });

  it('keeps "__proto__" an own key, as JSON.parse does, without touching the prototype', () => {
    const result = parseJsonText('{"__proto__": {"polluted": true}}');
    if (!result.ok) throw new Error('expected a value');
    const value = result.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('reports every duplicated key with its path and both positions, the last value winning', () => {
    const text = '{"hooks": {"Stop": [],\n "Stop": [{"a": 1, "a": 2}]}}';
    const result = parseJsonText(text);
    expect(result).toEqual({
      ok: true,
      value: JSON.parse(text) as unknown,
      duplicates: [
        {
          path: ['hooks', 'Stop'],
          key: 'Stop',
          first: { offset: 11, line: 1, column: 12 },
          second: { offset: 24, line: 2, column: 2 },
        },
        {
          path: ['hooks', 'Stop', 0, 'a'],
          key: 'a',
          first: { offset: 34, line: 2, column: 12 },
          second: { offset: 42, line: 2, column: 20 },
        },
      ],
    });
  });

  it.each([
    ['[', 1, 2, 'expected a value, found the end of the file'],
    ['{"a": 1,}', 1, 9, 'trailing comma before "}"'],
    ['[1,\n 2,\n]', 3, 1, 'trailing comma before "]"'],
    ['{"a" 1}', 1, 6, 'expected ":" after the property name, found "1"'],
    ['{"a": "b\n"}', 1, 9, 'unterminated string'],
    ['"\\x"', 1, 2, 'invalid escape \\x'],
    ['"\\u12"', 1, 2, 'invalid \\u escape'],
    ['[1] 2', 1, 5, 'unexpected "2" after the end of the JSON value'],
    ["{'a': 1}", 1, 2, 'expected a double-quoted property name, found "\'"'],
    ['// x\n{}', 1, 1, 'comments are not allowed in JSON'],
    ['[1 2]', 1, 4, 'expected "," or "]" after an element, found "2"'],
  ])('locates the syntax error of %j', (text, line, column, message) => {
    const result = parseJsonText(text);
    expect(result).toMatchObject({ ok: false, error: { kind: 'syntax', line, column, message } });
  });

  it.each([
    ['10,000 unclosed "["', '['.repeat(10_000)],
    ['10,000 unclosed {"a":', '{"a":'.repeat(10_000)],
    ['100,000 closed levels', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ])('stops %s at the depth limit without recursing', (_name, text) => {
    const result = parseJsonText(text, { maxDepth: 32 });
    expect(result).toMatchObject({
      ok: false,
      error: {
        kind: 'depth',
        line: 1,
        message: expect.stringContaining('deeper than 32') as string,
      },
    });
  });

  it('accepts nesting exactly at the limit', () => {
    expect(parseJsonText(`${'['.repeat(32)}${']'.repeat(32)}`, { maxDepth: 32 }).ok).toBe(true);
  });
});

describe('jsonTextDepthExceeds', () => {
  it('finds the first bracket past the limit, skipping strings', () => {
    expect(jsonTextDepthExceeds('{"a": "[[[[[", "b": [[1]]}', 3)).toBe(-1);
    expect(jsonTextDepthExceeds('{"a": "[[[[[", "b": [[1]]}', 2)).toBe(21);
    expect(jsonTextDepthExceeds('{"a": "\\"[[[["}', 1)).toBe(-1);
    expect(jsonTextDepthExceeds('{"a":'.repeat(1_000_000), 100)).toBe(500);
  });
});

describe('jsonValueDepthExceeds', () => {
  it('measures objects and arrays, the root being depth 1', () => {
    expect(jsonValueDepthExceeds('text', 0)).toBe(false);
    expect(jsonValueDepthExceeds({ a: [[1]] }, 3)).toBe(false);
    expect(jsonValueDepthExceeds({ a: [[1]] }, 2)).toBe(true);
  });

  it('stops at the limit on a value too deep for JSON.stringify, and on a cycle', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = { a: deep };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(jsonValueDepthExceeds(deep, 100)).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(jsonValueDepthExceeds(cyclic, 100)).toBe(true);
  });
});
