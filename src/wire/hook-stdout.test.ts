import { describe, expect, it } from 'vitest';
import { parseHookStdout } from './hook-stdout.ts';

describe('parseHookStdout', () => {
  it.each([
    ['nothing', ''],
    ['only whitespace', ' \n\t\n'],
  ])('reads %s as empty', (_name, stdout) => {
    expect(parseHookStdout(stdout)).toEqual({ kind: 'empty' });
  });

  it('parses a JSON object, ignoring surrounding whitespace and a byte-order mark', () => {
    expect(parseHookStdout('\uFEFF  {"decision":"deny","reason":"no"}\n')).toEqual({
      kind: 'json',
      value: { decision: 'deny', reason: 'no' },
    });
  });

  it('parses a JSON array (the decoder then rejects it as not an object)', () => {
    expect(parseHookStdout('[1,2]')).toEqual({ kind: 'json', value: [1, 2] });
  });

  it('unwraps one level of a twice-encoded JSON object', () => {
    const twice = JSON.stringify(JSON.stringify({ systemMessage: 'hi' }));
    expect(parseHookStdout(`${twice}\n`)).toEqual({ kind: 'json', value: { systemMessage: 'hi' } });
  });

  it('unwraps only one level', () => {
    const thrice = JSON.stringify(JSON.stringify(JSON.stringify({ a: 1 })));
    expect(parseHookStdout(thrice)).toEqual({ kind: 'text', text: thrice });
  });

  it('reads plain text as text, trimmed', () => {
    expect(parseHookStdout('Remember: the build uses pnpm.\n')).toEqual({
      kind: 'text',
      text: 'Remember: the build uses pnpm.',
    });
  });

  it('reads a string literal of prose and bare JSON scalars as text', () => {
    expect(parseHookStdout('"just a quote"')).toEqual({ kind: 'text', text: '"just a quote"' });
    expect(parseHookStdout('42')).toEqual({ kind: 'text', text: '42' });
    expect(parseHookStdout('"unterminated')).toEqual({ kind: 'text', text: '"unterminated' });
  });

  it('reports text that starts like JSON but does not parse as invalid-json', () => {
    const result = parseHookStdout('{"decision": "deny",}');
    expect(result.kind).toBe('invalid-json');
    expect(result.kind === 'invalid-json' && result.error.length).toBeGreaterThan(0);
    expect(parseHookStdout('[oops').kind).toBe('invalid-json');
  });

  it('reports a twice-encoded object that does not parse as invalid-json', () => {
    expect(parseHookStdout(JSON.stringify('{"decision": deny}')).kind).toBe('invalid-json');
  });
});
