/**
 * A rewrite does not walk past a tool-call guard (`GUARDS_TOOL_CALLS`): the guards asked about
 * other arguments run once more on the final ones, their skip or stop is final, and a rewrite
 * they answer then is ignored (one more pass, bounded). Flat and nested, read from a log.
 */
import { describe, expect, it } from 'vitest';
import { GUARDS_TOOL_CALLS } from '../../src/hooks/agent-hook.ts';
import { HookStack, ToolCallAction, type AgentHook } from '../../src/hooks/index.ts';
import { contextWithReports, toolCallEvent } from './support.ts';

type Args = { readonly command: string };

function guard(
  log: string[],
  name: string,
  refuse: RegExp,
  answer = ToolCallAction.run(),
): AgentHook {
  return {
    name,
    [GUARDS_TOOL_CALLS]: true,
    onToolCall(_context, event) {
      const command = (event.args as Args).command;
      log.push(`${name}: ${command}`);
      return refuse.test(command) ? ToolCallAction.skip(`${name} refuses ${command}`) : answer;
    },
  };
}

const rewriter = (log: string[], to: string): AgentHook => ({
  name: 'rewriter',
  onToolCall(_context, event) {
    log.push(`rewriter: ${(event.args as Args).command}`);
    return ToolCallAction.rewrite({ command: to });
  },
});

describe('tool-call guards see the final arguments', () => {
  it.each([
    ['flat', (members: AgentHook[]) => new HookStack(members)],
    [
      'nested',
      (members: AgentHook[]) =>
        new HookStack([new HookStack(members.slice(0, 1)), ...members.slice(1)]),
    ],
  ])('a guard before a rewrite runs again and its skip is final (%s)', async (_, build) => {
    const log: string[] = [];
    const { context } = contextWithReports();
    const stack = build([
      guard(log, 'guard', /rm/),
      rewriter(log, 'rm -f victim'),
      guard(log, 'after', /never/),
    ]);
    const resolution = await stack.resolveToolCall(
      context,
      toolCallEvent('tc1', { command: 'echo hello' }),
    );
    expect(resolution.action).toEqual(
      ToolCallAction.skip('guard refuses rm -f victim', { command: 'rm -f victim' }),
    );
    // The guard after the rewrite saw the final arguments already: it does not run twice.
    expect(log).toEqual([
      'guard: echo hello',
      'rewriter: echo hello',
      'after: rm -f victim',
      'guard: rm -f victim',
    ]);
  });

  it('runs no guard again when nothing rewrote, and a plain hook is never re-run', async () => {
    const log: string[] = [];
    const { context } = contextWithReports();
    const plain: AgentHook = { onToolCall: () => (log.push('plain'), ToolCallAction.run()) };
    const stack = new HookStack([plain, guard(log, 'guard', /rm/)]);
    expect(
      await stack.resolveToolCall(context, toolCallEvent('tc1', { command: 'ls' })),
    ).toMatchObject({
      rewritten: false,
    });
    const rewritten = new HookStack([plain, guard(log, 'guard', /rm/), rewriter(log, 'ls -l')]);
    expect(
      (await rewritten.resolveToolCall(context, toolCallEvent('tc2', { command: 'ls' }))).args,
    ).toEqual({
      command: 'ls -l',
    });
    expect(log).toEqual([
      'plain',
      'guard: ls',
      'plain',
      'guard: ls',
      'rewriter: ls',
      'guard: ls -l',
    ]);
  });

  it('ignores a rewrite a guard answers when re-checked, with a warning', async () => {
    const log: string[] = [];
    const { context, reports } = contextWithReports();
    const stack = new HookStack([
      guard(log, 'guard', /never/, ToolCallAction.rewrite({ command: 'guard again' })),
      rewriter(log, 'final'),
    ]);
    const resolution = await stack.resolveToolCall(
      context,
      toolCallEvent('tc1', { command: 'first' }),
    );
    expect(resolution.args).toEqual({ command: 'final' });
    expect(log).toEqual(['guard: first', 'rewriter: guard again', 'guard: final']);
    expect(reports.map((report) => report.text)).toEqual([
      expect.stringContaining('its second rewrite is ignored'),
    ]);
  });
});
