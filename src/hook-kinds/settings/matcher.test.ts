import { describe, expect, it } from 'vitest';
import { compileMatcher, tryCompileMatcher } from './matcher.ts';
import { SettingsError } from './settings-error.ts';

const at = { file: '/project/.hookwire/settings.json', path: 'hooks.PreToolUse[0].matcher' };

describe('compileMatcher', () => {
  it.each([
    // source, value, matches
    ['Bash', 'Bash', true],
    ['Bash', 'BashOutput', false],
    ['Bash', 'bash', false],
    ['Bash', 'MyBash', false],
    ['Edit|Write', 'Edit', true],
    ['Edit|Write', 'Write', true],
    ['Edit|Write', 'MultiEdit', false],
    ['Edit | Write', 'Write', true],
    ['mcp__.*', 'mcp__github__create_issue', true],
    ['mcp__.*', 'Bash', false],
    ['mcp__.*', 'my_mcp__tool', false],
    ['Rea.', 'Read', true],
    ['Rea.', 'Reader', false],
    ['Rea.', 'XRead', false],
    ['read_.*|write_file', 'write_file', true],
    ['read_.*|write_file', 'write_file_2', false],
    ['Notebook.*Edit', 'NotebookEdit', true],
    ['mcp__my-server__tool', 'mcp__my-server__tool', true],
    ['*', 'anything', true],
    ['*', undefined, true],
    ['', 'anything', true],
    [' ', 'anything', true],
    [undefined, 'anything', true],
    [undefined, undefined, true],
    ['Bash', undefined, false],
    ['mcp__.*', undefined, false],
  ])('%j against %j matches: %s', (source, value, matches) => {
    expect(compileMatcher(source, at).matches(value)).toBe(matches);
  });

  it.each([
    [undefined, 'all', '*'],
    ['', 'all', '*'],
    ['*', 'all', '*'],
    ['Bash', 'names', 'Bash'],
    ['Write|Edit', 'names', 'Edit|Write'],
    ['Edit | Write|Edit', 'names', 'Edit|Write'],
    ['mcp__.*', 'pattern', '/mcp__.*/'],
  ])('classifies %j as %s with key %s', (source, kind, key) => {
    const matcher = compileMatcher(source, at);
    expect(matcher.kind).toBe(kind);
    expect(matcher.key).toBe(key);
  });

  it('keeps the source as written', () => {
    expect(compileMatcher('Edit | Write', at).source).toBe('Edit | Write');
    expect(compileMatcher(undefined, at).source).toBe('');
    expect(compileMatcher('*', at).source).toBe('*');
  });

  it('rejects an invalid regular expression with its location and the RegExp message', () => {
    const result = tryCompileMatcher('[', at);
    expect(result).toMatchInlineSnapshot(`
      {
        "issue": {
          "file": "/project/.hookwire/settings.json",
          "fix": "escape special characters with a backslash (in JSON, "\\\\[" for a literal "["), or list tool names as "Edit|Write"",
          "message": "matcher "[" is not a valid regular expression: Invalid regular expression: /[/: Unterminated character class",
          "path": "hooks.PreToolUse[0].matcher",
        },
        "ok": false,
      }
    `);
    expect(() => compileMatcher('(Edit', at)).toThrow(SettingsError);
    try {
      compileMatcher('(Edit', at);
    } catch (error) {
      expect(SettingsError.isInstance(error)).toBe(true);
      expect((error as SettingsError).issues).toHaveLength(1);
      expect((error as SettingsError).code).toBe('settings_invalid');
    }
  });

  it('does not let a regular expression with alternatives escape the anchors', () => {
    const matcher = compileMatcher('Rea.|Writ.', at);
    expect(matcher.matches('Read')).toBe(true);
    expect(matcher.matches('Write')).toBe(true);
    expect(matcher.matches('Reader')).toBe(false);
    expect(matcher.matches('XWrite')).toBe(false);
  });
});
