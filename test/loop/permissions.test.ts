/**
 * Permission rules and modes in the real loop with the real built-in tools on real files: each
 * mode, and in-process PermissionRequest hooks allowing, denying and rewriting (updatedInput).
 */
import { mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/adapters/tools/index.ts';
import { parsePermissionRule, type PermissionMode } from '../../src/hooks/permissions/index.ts';
import type { AgentPermissions, RunEvent } from '../../src/loop/index.ts';
import {
  PermissionRequestAction,
  ToolCallAction,
  type HookContext,
  type PermissionRequestEvent,
} from '../../src/events/index.ts';

/** An in-process `onPermissionRequest` hook. */
type PermissionHook = (
  context: HookContext,
  event: PermissionRequestEvent,
) => PermissionRequestAction | Promise<PermissionRequestAction>;
import { callTools, collect, say, start } from './support.ts';

let cwd: string;
beforeEach(async () => {
  cwd = await realpath(await mkdtemp(join(tmpdir(), 'hookwire-permissions-')));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function rules(
  lists: Partial<Record<'allow' | 'deny' | 'ask', string[]>>,
): AgentPermissions['rules'] {
  const parse = (source: string) => {
    const parsed = parsePermissionRule(source);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.rule;
  };
  return {
    allow: (lists.allow ?? []).map(parse),
    deny: (lists.deny ?? []).map(parse),
    ask: (lists.ask ?? []).map(parse),
  };
}

interface Outcome {
  readonly results: { toolName: string; error?: string; result: unknown }[];
  readonly notifications: { type: string; details: unknown }[];
  readonly log: string[];
}

async function runCalls(
  calls: { name: string; args: unknown }[],
  permissions: AgentPermissions,
  hooks: { toolCall?: (args: unknown) => ToolCallAction } = {},
  permissionHooks: readonly PermissionHook[] = [],
): Promise<Outcome> {
  const log: string[] = [];
  const notifications: { type: string; details: unknown }[] = [];
  const harness = await start({
    cwd,
    tools: builtinTools(),
    script: [callTools(calls.map((call, index) => ({ id: `c${index}`, ...call }))), say('done')],
    hooks: [
      {
        name: 'observer',
        onToolCall: (_context, event) => {
          log.push(`PreToolUse ${event.toolName}`);
          return hooks.toolCall?.(event.args) ?? ToolCallAction.run();
        },
        onNotification: (_context, event) => {
          log.push(`Notification ${event.notificationType}`);
          notifications.push({ type: event.notificationType, details: event.details });
          return { kind: 'continue' };
        },
      },
      // Each PermissionRequest hook is its own registered hook: the stack composes them.
      ...permissionHooks.map((hook, index) => ({
        name: `permission-${index}`,
        onPermissionRequest: (context: HookContext, event: PermissionRequestEvent) => {
          log.push(`PermissionRequest ${event.toolName}`);
          return hook(context, event);
        },
      })),
    ],
    agent: { permissions },
  });
  const { events } = await collect(harness.session.run('go'));
  await harness.session.close('exit');
  const results = events
    .filter(
      (event): event is Extract<RunEvent, { type: 'tool-result' }> => event.type === 'tool-result',
    )
    .map((event) => ({
      toolName: event.toolName,
      result: event.result,
      ...(event.error === undefined ? {} : { error: event.error }),
    }));
  return { results, notifications, log };
}

const write = (path: string, content = 'x') => ({ name: 'write_file', args: { path, content } });
const shell = (command: string) => ({ name: 'shell', args: { command } });
const exists = (path: string) =>
  stat(join(cwd, path)).then(
    () => true,
    () => false,
  );

describe('permission modes', () => {
  it('default: reads and allowed commands run; a denied command is refused; an unallowed edit is asked, and headless that denies and notifies', async () => {
    const outcome = await runCalls(
      [
        shell('echo hi'),
        shell('rm -rf build'),
        write('a.txt'),
        { name: 'glob', args: { pattern: '*' } },
      ],
      { rules: rules({ allow: ['shell(echo *)'], deny: ['shell(rm *)'] }), mode: 'default' },
    );
    const [echo, rmCall, written, globbed] = outcome.results;
    expect(echo?.error).toBeUndefined();
    expect((echo?.result as { stdout: string }).stdout).toBe('hi\n');
    expect(rmCall?.error).toContain('denied by the permission rule shell(rm *)');
    expect(written?.error).toContain('no PermissionRequest hook decided');
    expect(globbed?.error).toBeUndefined();
    expect(await exists('a.txt')).toBe(false);
    expect(outcome.notifications.map((entry) => entry.type)).toEqual(['permission_prompt']);
    expect(outcome.notifications[0]?.details).toMatchObject({
      tool_name: 'write_file',
      tool_call_id: 'c2',
      permission_mode: 'default',
    });
  });

  it('acceptEdits: edits and mkdir run without asking; other commands are still asked', async () => {
    const outcome = await runCalls(
      [write('a.txt'), shell('mkdir out'), shell('curl http://127.0.0.1:9')],
      {
        rules: rules({}),
        mode: 'acceptEdits',
      },
    );
    expect(outcome.results.map((result) => result.error === undefined)).toEqual([
      true,
      true,
      false,
    ]);
    expect(await exists('a.txt')).toBe(true);
    expect(await exists('out')).toBe(true);
  });

  it('plan: edits are refused even with an allow rule; reads run', async () => {
    const outcome = await runCalls([write('a.txt'), { name: 'glob', args: { pattern: '*' } }], {
      rules: rules({ allow: ['write_file'] }),
      mode: 'plan',
    });
    expect(outcome.results[0]?.error).toContain('plan mode');
    expect(outcome.results[1]?.error).toBeUndefined();
    expect(await exists('a.txt')).toBe(false);
  });

  it('bypassPermissions: everything runs but what a deny rule refuses', async () => {
    const outcome = await runCalls([write('a.txt'), shell('touch b.txt'), write('.env')], {
      rules: rules({ deny: ['write_file(.env)'] }),
      mode: 'bypassPermissions',
    });
    expect(outcome.results.map((result) => result.error === undefined)).toEqual([
      true,
      true,
      false,
    ]);
    expect(await exists('.env')).toBe(false);
  });

  it('checks after PreToolUse, on the arguments PreToolUse rewrote', async () => {
    const outcome = await runCalls(
      [shell('echo safe')],
      { rules: rules({ allow: ['shell(echo *)'], deny: ['shell(rm *)'] }), mode: 'default' },
      { toolCall: () => ToolCallAction.rewrite({ command: 'rm -rf everything' }) },
    );
    expect(outcome.log[0]).toBe('PreToolUse shell');
    expect(outcome.results[0]?.error).toContain('shell(rm *)');
  });
});

describe('PermissionRequest hooks (in-process)', () => {
  const asked = (mode: PermissionMode): AgentPermissions => ({
    rules: rules({ ask: ['write_file'], deny: ['write_file(secret/**)'] }),
    mode,
  });

  it('an allow runs the call, with the rule in the request', async () => {
    const requests: PermissionRequestEvent[] = [];
    const outcome = await runCalls([write('a.txt', 'allowed')], asked('bypassPermissions'), {}, [
      (_context, request) => {
        requests.push(request);
        return PermissionRequestAction.allow();
      },
    ]);
    expect(outcome.results[0]?.error).toBeUndefined();
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('allowed');
    expect(requests[0]).toMatchObject({
      toolName: 'write_file',
      toolCallId: 'c0',
      mode: 'bypassPermissions',
    });
    expect(requests[0]?.rule).toBe('write_file');
    expect(outcome.log).toEqual(['PreToolUse write_file', 'PermissionRequest write_file']);
    expect(outcome.notifications).toEqual([]);
  });

  it('a deny refuses the call with its message; no notification', async () => {
    const outcome = await runCalls([write('a.txt')], asked('default'), {}, [
      () => PermissionRequestAction.deny('not on a Friday'),
    ]);
    expect(outcome.results[0]?.error).toBe('Permission denied: not on a Friday');
    expect(await exists('a.txt')).toBe(false);
    expect(outcome.notifications).toEqual([]);
  });

  it('updatedInput rewrites the call; a rewrite into a denied path or off the schema is refused', async () => {
    const rewritten = await runCalls([write('a.txt', 'original')], asked('default'), {}, [
      () => PermissionRequestAction.allow({ path: 'b.txt', content: 'rewritten' }),
    ]);
    expect(rewritten.results[0]?.error).toBeUndefined();
    expect(await exists('a.txt')).toBe(false);
    expect(await readFile(join(cwd, 'b.txt'), 'utf8')).toBe('rewritten');

    const intoDenied = await runCalls([write('c.txt')], asked('default'), {}, [
      () => PermissionRequestAction.allow({ path: 'secret/key', content: 'x' }),
    ]);
    expect(intoDenied.results[0]?.error).toContain('write_file(secret/**)');
    expect(await exists('secret')).toBe(false);

    const offSchema = await runCalls([write('d.txt')], asked('default'), {}, [
      () => PermissionRequestAction.allow({ path: 42 }),
    ]);
    expect(offSchema.results[0]?.error).toContain("does not match the tool's schema");
    expect(await exists('d.txt')).toBe(false);
  });

  it('a hook without an opinion passes to the next; none deciding denies and notifies', async () => {
    const outcome = await runCalls([write('a.txt'), write('b.txt')], asked('default'), {}, [
      () => PermissionRequestAction.continue(),
      (_context, request) =>
        (request.args as { path: string }).path === 'a.txt'
          ? PermissionRequestAction.allow()
          : PermissionRequestAction.continue(),
    ]);
    expect(outcome.results.map((result) => result.error === undefined)).toEqual([true, false]);
    expect(outcome.notifications.map((entry) => entry.type)).toEqual(['permission_prompt']);
  });

  it('composes in registration order: a later deny beats an earlier allow; the later rewrite wins and is what later hooks see', async () => {
    const denied = await runCalls([write('a.txt')], asked('default'), {}, [
      () => PermissionRequestAction.allow(),
      () => PermissionRequestAction.deny('second says no'),
    ]);
    expect(denied.results[0]?.error).toBe('Permission denied: second says no');
    expect(await exists('a.txt')).toBe(false);

    const seen: unknown[] = [];
    const rewritten = await runCalls([write('a.txt', 'original')], asked('default'), {}, [
      () => PermissionRequestAction.allow({ path: 'first.txt', content: 'first' }),
      (_context, event) => {
        seen.push(event.args);
        return PermissionRequestAction.allow({ path: 'second.txt', content: 'second' });
      },
    ]);
    expect(seen).toEqual([{ path: 'first.txt', content: 'first' }]);
    expect(rewritten.results[0]?.error).toBeUndefined();
    expect(await exists('first.txt')).toBe(false);
    expect(await readFile(join(cwd, 'second.txt'), 'utf8')).toBe('second');
  });
});
