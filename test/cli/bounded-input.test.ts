/**
 * Hostile and broken settings files through the real `hookwire hooks validate` process: each one
 * gets a clear error naming the limit or the problem, on one line per issue, never a stack trace.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, runCli } from './support.ts';

const STACK_FRAME = /\n\s+at /;

async function validate(
  text: string,
): Promise<{ code: number | null; stderr: string; file: string }> {
  const sandbox = await createSandbox();
  const file = join(sandbox.root, 'settings.json');
  await writeFile(file, text);
  const outcome = await runCli(
    ['hooks', 'validate', '--cwd', sandbox.project, '--settings', file],
    {
      env: sandbox.env,
    },
  );
  return { code: outcome.code, stderr: outcome.stderr, file };
}

const hook = { type: 'command', command: 'echo x' };
const groups = (count: number): string =>
  JSON.stringify({
    hooks: { PreToolUse: Array.from({ length: count }, () => ({ hooks: [hook] })) },
  });
const hooks = (count: number): string =>
  JSON.stringify({ hooks: { PreToolUse: [{ hooks: Array.from({ length: count }, () => hook) }] } });

describe('hookwire hooks validate on hostile settings files', () => {
  it.each([
    [
      '10,000 unclosed "["',
      () => '['.repeat(10_000),
      /:1:33: nesting deeper than the limit of 32 levels/,
    ],
    [
      '10,000 unclosed {"a":',
      () => '{"a":'.repeat(10_000),
      /:1:161: nesting deeper than the limit of 32 levels/,
    ],
    [
      '10⁶ hook groups',
      () => groups(1_000_000),
      /the file is \d+ bytes, more than the limit of 1 MiB/,
    ],
    [
      '10⁶ hooks in one group',
      () => hooks(1_000_000),
      /the file is \d+ bytes, more than the limit of 1 MiB/,
    ],
    [
      '1,001 hook groups',
      () => groups(1001),
      /hooks\.PreToolUse: 1001 hook groups, more than the limit of 1000 groups per event/,
    ],
    [
      '140,000 permission rules (a spread of them overflowed the stack)',
      () => JSON.stringify({ permissions: { deny: Array.from({ length: 140_000 }, () => 'x') } }),
      /permissions\.deny: 140000 entries, more than the limit of 1000 in one list/,
    ],
    [
      '101 hooks in one group',
      () => hooks(101),
      /hooks\.PreToolUse\[0\]\.hooks: 101 hooks in one group, more than the limit of 100/,
    ],
  ])(
    '%s: exits 1 with one issue naming the limit, no stack trace',
    async (_name, make, expected) => {
      const { code, stderr, file } = await validate(make());
      expect(stderr).not.toMatch(STACK_FRAME);
      expect(code).toBe(1);
      const lines = stderr.trimEnd().split('\n');
      expect(lines).toEqual(['Invalid hook settings (1 issue):', expect.stringContaining(file)]);
      expect(lines[1]).toMatch(expected);
      expect(lines[1]).toContain('; fix: ');
    },
  );

  it('a megabyte of invalid groups: every issue on its own line, the rest counted, no stack trace', async () => {
    const bad = { matcher: '(', hooks: [{ type: 'x', command: '', timeout: 'soon', extra: 1 }] };
    const events = [
      'PreToolUse',
      'PostToolUse',
      'Stop',
      'UserPromptSubmit',
      'SessionStart',
      'Notification',
    ];
    const text = JSON.stringify({
      hooks: Object.fromEntries(
        events.map((event) => [event, Array.from({ length: 1000 }, () => bad)]),
      ),
    });
    const { code, stderr } = await validate(text);
    expect(stderr).not.toMatch(STACK_FRAME);
    expect(code).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Invalid hook settings \(\d+ issues\):$/);
    expect(lines).toHaveLength(52);
    expect(lines.at(-1)).toMatch(/^ {2}… and \d+ more issues/);
  });

  it('80,000 unknown keys in one hook: the first 1,000 issues are collected, the cap said, no stack trace', async () => {
    const keys = Object.fromEntries(Array.from({ length: 80_000 }, (_, index) => [`k${index}`, 1]));
    const text = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', ...keys }] }] },
    });
    const { code, stderr } = await validate(text);
    expect(stderr).not.toMatch(STACK_FRAME);
    expect(code).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('Invalid hook settings (1001 issues):');
    expect(lines[1]).toContain('hooks.Stop[0].hooks[0].k0: unknown field "k0" in a hook');
    expect(lines.at(-1)).toMatch(/^ {2}… and 951 more issues/);
  });

  it('an event written twice is an error naming both places, not a silent replacement', async () => {
    const text = [
      '{"hooks": {',
      '  "PreToolUse": [{"hooks": [{"type": "command", "command": "./first-guard.sh", "failClosed": true}]}],',
      '  "PreToolUse": [{"hooks": [{"type": "command", "command": "./second-guard.sh"}]}]',
      '}}',
    ].join('\n');
    const { code, stderr, file } = await validate(text);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Invalid hook settings (1 issue):\n  ${file}:3:3: hooks.PreToolUse: duplicate key "PreToolUse": hooks.PreToolUse (line 2, column 3) is written again as hooks.PreToolUse (line 3, column 3); JSON keeps only the last, so the first would be silently ignored; fix: write "PreToolUse" once, with the groups of both in one list\n`,
    );
  });
});
