/**
 * A payload too deep or too large for a hook's stdin (say, a tool input a model nested ten
 * thousand levels) never reaches `JSON.stringify` unbounded: the hook is reported as not run,
 * naming the limit, and a failClosed guard denies. Real settings, real runner.
 */
import { access } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireCommandHooks } from '../../src/hook-kinds/group/index.ts';
import { createHookProject, group, type HookProject } from './support.ts';

let project: HookProject;
beforeEach(async () => {
  project = await createHookProject();
});
afterEach(async () => {
  await project.close();
});

function deepValue(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
}

async function fireWith(toolInput: unknown, failClosed: boolean, sequential = false) {
  const marker = `${project.dir}/ran`;
  const command = await project.script('guard.sh', `touch "${marker}"; cat >/dev/null`);
  const other = await project.script('audit.sh', `touch "${marker}"; cat >/dev/null`);
  const hooks = [
    { command, failClosed, name: 'guard' },
    { command: other, name: 'audit' },
  ];
  const settings = await project.settings({ PreToolUse: [group(hooks, { sequential })] });
  return fireCommandHooks(
    settings,
    'PreToolUse',
    { tool_name: 'shell', tool_call_id: 'call_1', tool_input: toolInput },
    { runner: project.runner, projectDir: project.dir },
  );
}

describe('payload bounds', () => {
  it.each([false, true])(
    'a 10,000-level tool input: a failClosed guard denies naming the limit (sequential: %s)',
    async (sequential) => {
      const result = await fireWith(deepValue(10_000), true, sequential);
      expect(result.decision).toBe('deny');
      expect(result.reason).toBe(
        'hook "guard" (PreToolUse) could not start: its payload nests deeper than the limit of 100 levels, so it was not sent; it is marked failClosed, so the action it guards is denied',
      );
      expect(result.hooks.map((hook) => hook.status)).toEqual(['failed-closed', 'error']);
      await expect(access(`${project.dir}/ran`)).rejects.toThrow(/ENOENT/);
    },
  );

  it('a 10,000-level tool input: an advisory hook warns and the call is allowed', async () => {
    const result = await fireWith(deepValue(10_000), false);

    expect(result.decision).toBe('allow');
    expect(result.warnings).toEqual([
      expect.stringContaining('its payload nests deeper than the limit of 100 levels'),
      expect.stringContaining('its payload nests deeper than the limit of 100 levels'),
    ]);
  });

  it('a tool input of more than 16 MiB is not sent either', async () => {
    const result = await fireWith({ text: 'x'.repeat(17 * 1024 * 1024) }, true);
    expect(result.decision).toBe('deny');
    expect(result.reason).toMatch(
      /its payload is \d+ bytes of JSON, more than the limit of 16 MiB/,
    );
  });
});
