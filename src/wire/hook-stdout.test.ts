import { describe, expect, it } from 'vitest';
import {
  HOOK_JSON_LIMITS,
  encodeHookPayload,
  guardStdoutProblem,
  parseHookStdout,
  quoteStart,
} from './hook-stdout.ts';

const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

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

describe('parseHookStdout: bounded depth', () => {
  it('refuses JSON nested deeper than the limit before parsing it, naming the limit', () => {
    const answer = `{"hookSpecificOutput": {"updatedInput": ${nested(10_000)}}}`;
    expect(parseHookStdout(answer)).toEqual({
      kind: 'invalid-json',
      // The 101st opening brace: 2 levels of envelope, then 99 of the nested value, 5 characters each.
      error: `JSON nested deeper than the limit of 100 levels (at character ${40 + 98 * 5 + 1})`,
    });
  });

  it('accepts nesting exactly at the limit', () => {
    expect(parseHookStdout(nested(HOOK_JSON_LIMITS.maxDepth)).kind).toBe('json');
    expect(parseHookStdout(nested(HOOK_JSON_LIMITS.maxDepth + 1)).kind).toBe('invalid-json');
  });
});

describe('guardStdoutProblem', () => {
  it.each([
    ['nothing', ''],
    ['whitespace', ' \n'],
    ['one object', '{"decision": "deny", "reason": "no"}\n'],
    ['one object after a byte-order mark', '\uFEFF{}'],
  ])('accepts %s', (_name, stdout) => {
    expect(guardStdoutProblem(stdout)).toBeUndefined();
  });

  it.each([
    [
      'a log line before the answer',
      'checking…\n{"decision": "deny"}',
      /^printed something other than one JSON object \(a guard's stdout must be exactly one JSON object or nothing\): it printed "checking…\\n\{\\"decision\\": \\"deny\\"\}"$/,
    ],
    ['plain text', 'looks fine to me', /it printed "looks fine to me"$/],
    [
      'an array',
      '[{"decision": "allow"}]',
      /^printed something other than one JSON object \(a guard.s stdout must be exactly one JSON object or nothing\): it printed "\[/,
    ],
    ['a twice-encoded object', JSON.stringify('{"decision": "allow"}'), /one JSON object/],
    [
      'two objects',
      '{"decision": "allow"}\n{"decision": "deny"}',
      /^printed output that does not decode: invalid JSON \(.*\); it printed "\{/,
    ],
    [
      'too deep an answer',
      nested(10_000),
      /^printed output that does not decode: JSON nested deeper than the limit of 100 levels/,
    ],
    [
      'a repeated key (JSON.parse would keep the last)',
      '{"hookSpecificOutput": {"permissionDecision": "deny"}, "hookSpecificOutput": {"permissionDecision": "allow"}}',
      /^printed JSON that repeats the key "hookSpecificOutput" \(line 1\), which is ambiguous/,
    ],
    [
      'a repeated key at any depth',
      '{"hookSpecificOutput": {"permissionDecision": "deny",\n "permissionDecision": "allow"}}',
      /^printed JSON that repeats the key "permissionDecision" in hookSpecificOutput \(line 2\)/,
    ],
  ])('refuses %s, quoting what was printed', (_name, stdout, problem) => {
    expect(guardStdoutProblem(stdout)).toMatch(problem);
  });

  it('quotes only the start of long output', () => {
    const problem = guardStdoutProblem(`log: ${'x'.repeat(1_000_000)}`) ?? '';
    expect(problem.length).toBeLessThan(300);
    expect(problem).toMatch(/it printed "log: x+"…$/);
  });
});

describe('quoteStart', () => {
  it('quotes short text whole and cuts long text at a code point', () => {
    expect(quoteStart('a\nb')).toBe('"a\\nb"');
    expect(quoteStart('😀😀😀', 2)).toBe('"😀😀"…');
  });
});

describe('encodeHookPayload', () => {
  it('serialises a payload within the limits, as text and as the UTF-8 bytes stdin gets', () => {
    const text = '{"tool_input":{"command":"ls ✓"}}';
    expect(encodeHookPayload({ tool_input: { command: 'ls ✓' } })).toEqual({
      ok: true,
      text,
      bytes: Buffer.from(text, 'utf8'),
    });
  });

  it('refuses a payload too deep for JSON.stringify, naming the limit, without throwing', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 10_000; level++) deep = { a: deep };
    expect(encodeHookPayload({ tool_input: deep })).toEqual({
      ok: false,
      problem: 'its payload nests deeper than the limit of 100 levels, so it was not sent',
    });
  });

  it('counts the limit in UTF-8 bytes, not characters (a payload of 3-byte characters)', () => {
    const characters = Math.floor(HOOK_JSON_LIMITS.maxPayloadBytes / 3) + 16;
    const result = encodeHookPayload({ tool_input: { text: '✓'.repeat(characters) } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(/bytes of JSON, more than the limit of 16 MiB/);
    const within = encodeHookPayload({ tool_input: { text: '✓'.repeat(characters - 64) } });
    expect(within.ok && within.bytes.length).toBe(within.ok ? Buffer.byteLength(within.text) : -1);
  });

  it('refuses a payload larger than the size limit', () => {
    const result = encodeHookPayload({
      tool_input: { text: 'x'.repeat(HOOK_JSON_LIMITS.maxPayloadBytes) },
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(
      /more than the limit of 16 MiB, so it was not sent$/,
    );
  });
});
