import { describe, expect, it } from 'vitest';
import type { ToolChoice } from '../content/model.ts';
import { aggregateToolChoice, decodeToolChoice } from './tool-choice.ts';

describe('decodeToolChoice', () => {
  it('accepts the three modes with or without an allowlist, by reference', () => {
    for (const mode of ['auto', 'required', 'none'] as const) {
      const choice = { mode, allowedToolNames: ['read_file'] };
      const result = decodeToolChoice(choice);
      expect(result.ok && result.value).toBe(choice);
      expect(decodeToolChoice({ mode }).ok).toBe(true);
    }
  });

  it.each([
    ['AUTO', 'auto'],
    ['ANY', 'required'],
    ['NONE', 'none'],
  ])('rejects the v1 mode %s naming %s', (mode, replacement) => {
    const result = decodeToolChoice({ mode });
    expect(result.ok ? '' : result.error.message).toContain(
      `"${mode}" is not a tool-choice mode: use \`${replacement}\``,
    );
  });

  it('rejects a v1 toolConfig naming allowedToolNames', () => {
    const result = decodeToolChoice({ mode: 'ANY', allowedFunctionNames: ['read_file'] });
    expect(result.ok ? '' : result.error.message).toMatchInlineSnapshot(`
      "toolChoice is invalid:
        $.allowedFunctionNames: \`allowedFunctionNames\` is a v1 field; the v2 wire uses \`allowedToolNames\` (an allowlist of tool names)
        $.mode: "ANY" is not a tool-choice mode: use \`required\` (v1 modes AUTO/ANY/NONE are auto/required/none in v2)"
    `);
  });

  it('rejects a missing mode and a non-string allowlist entry', () => {
    const result = decodeToolChoice({ allowedToolNames: ['a', 1] });
    expect(result.ok ? [] : result.error.issues).toEqual([
      { path: '$.mode', message: 'required field is missing: one of auto, required, none' },
      { path: '$.allowedToolNames[1]', message: 'expected a string, got a number' },
    ]);
  });
});

describe('aggregateToolChoice', () => {
  const table: [string, ToolChoice[], ToolChoice | undefined][] = [
    ['no hooks: nothing to enforce', [], undefined],
    ['one choice is kept', [{ mode: 'required' }], { mode: 'required' }],
    [
      'none wins over required and auto',
      [{ mode: 'auto' }, { mode: 'none' }, { mode: 'required' }],
      { mode: 'none' },
    ],
    [
      'required wins over auto',
      [{ mode: 'auto' }, { mode: 'required' }, { mode: 'auto' }],
      { mode: 'required' },
    ],
    [
      'explicit allowlists intersect, sorted',
      [
        { mode: 'auto', allowedToolNames: ['c', 'a', 'b'] },
        { mode: 'auto', allowedToolNames: ['b', 'c', 'd'] },
      ],
      { mode: 'auto', allowedToolNames: ['b', 'c'] },
    ],
    [
      'names match case-insensitively (trimmed), spelled as the first list that named them',
      [
        { mode: 'auto', allowedToolNames: ['read_file', 'Glob'] },
        { mode: 'auto', allowedToolNames: ['Read_File', ' glob '] },
      ],
      { mode: 'auto', allowedToolNames: ['Glob', 'read_file'] },
    ],
    [
      'one list is sorted and de-duplicated case-insensitively',
      [{ mode: 'required', allowedToolNames: ['write_file', 'Read_File', 'read_file'] }],
      { mode: 'required', allowedToolNames: ['Read_File', 'write_file'] },
    ],
    [
      'an omitted list is unrestricted and does not widen an explicit one',
      [{ mode: 'auto' }, { mode: 'required', allowedToolNames: ['a'] }, { mode: 'auto' }],
      { mode: 'required', allowedToolNames: ['a'] },
    ],
    [
      'disjoint allowlists allow nothing',
      [
        { mode: 'auto', allowedToolNames: ['a'] },
        { mode: 'auto', allowedToolNames: ['b'] },
      ],
      { mode: 'auto', allowedToolNames: [] },
    ],
    [
      'an explicit empty list is the most restrictive',
      [
        { mode: 'auto', allowedToolNames: [] },
        { mode: 'auto', allowedToolNames: ['a'] },
      ],
      { mode: 'auto', allowedToolNames: [] },
    ],
    [
      'none keeps the intersected allowlist beside it',
      [
        { mode: 'none', allowedToolNames: ['a', 'b'] },
        { mode: 'required', allowedToolNames: ['b'] },
      ],
      { mode: 'none', allowedToolNames: ['b'] },
    ],
    [
      'duplicates in an allowlist collapse',
      [{ mode: 'auto', allowedToolNames: ['a', 'a', 'b'] }],
      { mode: 'auto', allowedToolNames: ['a', 'b'] },
    ],
  ];

  it.each(table)('%s', (_name, choices, expected) => {
    expect(aggregateToolChoice(choices)).toEqual(expected);
  });

  it('spells the names as the tools are declared, an exact match first', () => {
    expect(
      aggregateToolChoice(
        [
          { mode: 'auto', allowedToolNames: ['READ_FILE', 'Grep', 'mcp__docs__search'] },
          { mode: 'auto', allowedToolNames: ['read_file', 'grep', 'MCP__DOCS__SEARCH'] },
        ],
        ['grep', 'Grep', 'read_file', 'mcp__docs__search', 'shell'],
      ),
    ).toEqual({ mode: 'auto', allowedToolNames: ['Grep', 'mcp__docs__search', 'read_file'] });
    // A name no declared tool has keeps the first spelling.
    expect(aggregateToolChoice([{ mode: 'auto', allowedToolNames: ['Nope'] }], ['shell'])).toEqual({
      mode: 'auto',
      allowedToolNames: ['Nope'],
    });
  });

  it('does not change the choices it reads', () => {
    const first = { mode: 'auto', allowedToolNames: ['a', 'b'] } as const;
    aggregateToolChoice([first, { mode: 'auto', allowedToolNames: ['b'] }]);
    expect(first.allowedToolNames).toEqual(['a', 'b']);
  });
});
