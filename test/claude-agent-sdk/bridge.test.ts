/**
 * `toClaudeAgentHooks`: the callbacks the Claude Agent SDK would call, called with inputs typed
 * by the SDK's own types, run hookwire's settings and in-process hooks and answer in the SDK's
 * output shape.
 */
import type {
  HookCallbackMatcher,
  HookInput,
  HookJSONOutput,
  PermissionRequestHookInput,
  PostToolUseHookInput,
  PreToolUseHookInput,
  SessionStartHookInput,
  StopHookInput,
  UserPromptSubmitHookInput,
} from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import {
  PermissionRequestAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  ToolResultAction,
  type AgentHook,
} from '../../src/index.ts';
import {
  createHookwire,
  toClaudeAgentHooks,
  type ClaudeHookwire,
} from '../../src/claude-agent-sdk.ts';
import { group, useHookwireFixture } from '../ai-sdk/support.ts';

const fixture = useHookwireFixture(createHookwire);
const open = (options: { settings?: string[]; hooks?: AgentHook[] }): Promise<ClaudeHookwire> =>
  fixture.open(options);

const base = () => ({
  session_id: 'claude-session-1',
  transcript_path: `${fixture.project.dir}/transcript.jsonl`,
  cwd: fixture.project.dir,
});

/** Calls the SDK callbacks registered for the input's event, as the SDK does, in order. */
async function fire(
  matchers: HookCallbackMatcher[] | undefined,
  input: HookInput,
  toolUseId?: string,
): Promise<HookJSONOutput[]> {
  const outputs: HookJSONOutput[] = [];
  for (const matcher of matchers ?? [])
    for (const callback of matcher.hooks)
      outputs.push(await callback(input, toolUseId, { signal: new AbortController().signal }));
  return outputs;
}

describe('toClaudeAgentHooks', () => {
  it('registers nothing when no hook is configured', async () => {
    const instance = await open({});
    expect(toClaudeAgentHooks(instance)).toEqual({});
  });

  it('a settings-file guard on `shell` denies Claude’s Bash with the SDK’s permission decision', async () => {
    const seen = `${fixture.project.dir}/guard-input.json`;
    const guard = await fixture.project.script(
      'guard.sh',
      `cat > "${seen}"; echo "no rm -rf here" >&2; exit 2`,
    );
    const settings = await fixture.project.settings('hooks.json', {
      PreToolUse: [group([{ command: guard }], { matcher: 'shell' })],
    });
    const instance = await open({ settings: [settings] });
    const hooks = toClaudeAgentHooks(instance);
    const input: PreToolUseHookInput = {
      ...base(),
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /', description: 'clean up' },
      tool_use_id: 'toolu_1',
    };
    const [output] = await fire(hooks.PreToolUse, input, 'toolu_1');
    expect(output).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: expect.stringContaining('no rm -rf here') as string,
      },
    });
    const { readFile } = await import('node:fs/promises');
    const payload = JSON.parse(await readFile(seen, 'utf8')) as Record<string, unknown>;
    // The command hook saw hookwire's names and the agent's session.
    expect(payload).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'shell',
      tool_input: { command: 'rm -rf /' },
      session_id: 'claude-session-1',
    });
  });

  it('a rewrite in hookwire’s names comes back as updatedInput in Claude’s (path → file_path)', async () => {
    const instance = await open({
      hooks: [
        {
          onToolCall: (_context, event) =>
            event.toolName === 'write_file'
              ? ToolCallAction.rewrite({
                  ...(event.args as Record<string, unknown>),
                  path: `/sandbox${(event.args as { path: string }).path}`,
                })
              : ToolCallAction.run(),
        },
      ],
    });
    const hooks = toClaudeAgentHooks(instance);
    const input: PreToolUseHookInput = {
      ...base(),
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: '/etc/hosts', content: 'x' },
      tool_use_id: 'toolu_2',
    };
    expect(await fire(hooks.PreToolUse, input)).toEqual([
      {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          updatedInput: { file_path: '/sandbox/etc/hosts', content: 'x' },
        },
      },
    ]);
  });

  it('PostToolUse: a rewrite is updatedToolOutput, context is additionalContext', async () => {
    const instance = await open({
      hooks: [{ onToolResult: () => ToolResultAction.rewrite('[redacted]', 'redacted a key') }],
    });
    const input: PostToolUseHookInput = {
      ...base(),
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: '.env' },
      tool_response: 'API_KEY=sk-123',
      tool_use_id: 'toolu_3',
    };
    expect(await fire(toClaudeAgentHooks(instance).PostToolUse, input)).toEqual([
      {
        hookSpecificOutput: {
          hookEventName: 'PostToolUse',
          additionalContext: 'redacted a key',
          updatedToolOutput: '[redacted]',
        },
      },
    ]);
  });

  it('UserPromptSubmit: deny blocks the prompt; Stop blocks once per turn, then lets it end', async () => {
    const instance = await open({
      hooks: [
        {
          onPromptSubmit: (_context, event) =>
            event.prompt.includes('secret')
              ? PromptSubmitAction.deny('no secrets')
              : PromptSubmitAction.continue(),
          onStop: (_context, event) => StopAction.block(`run the tests for: ${event.prompt}`),
        },
      ],
    });
    // A budget of 1 continuation per turn (the default is 8).
    const hooks = toClaudeAgentHooks({ hooks: instance.hooks, stopContinuationsPerTurn: 1 });
    const prompt = (text: string): UserPromptSubmitHookInput => ({
      ...base(),
      hook_event_name: 'UserPromptSubmit',
      prompt: text,
    });
    expect(await fire(hooks.UserPromptSubmit, prompt('my secret'))).toEqual([
      { decision: 'block', reason: 'no secrets' },
    ]);
    expect(await fire(hooks.UserPromptSubmit, prompt('fix the bug'))).toEqual([{}]);
    const stop = (active: boolean): StopHookInput => ({
      ...base(),
      hook_event_name: 'Stop',
      stop_hook_active: active,
      last_assistant_message: 'Fixed.',
    });
    expect(await fire(hooks.Stop, stop(false))).toEqual([
      { decision: 'block', reason: 'run the tests for: fix the bug' },
    ]);
    // The budget is spent: the second block lets the turn end.
    expect(await fire(hooks.Stop, stop(true))).toEqual([{}]);
  });

  it('SessionStart context reaches the agent; createHookwire itself fires no SessionStart', async () => {
    const sources: string[] = [];
    const instance = await open({
      hooks: [
        {
          onSessionStart: (_context, event) => {
            sources.push(event.source);
            return { kind: 'continue', additionalContext: 'Repo: hookwire' };
          },
        },
      ],
    });
    expect(sources).toEqual([]);
    const input: SessionStartHookInput = {
      ...base(),
      hook_event_name: 'SessionStart',
      source: 'startup',
    };
    expect(await fire(toClaudeAgentHooks(instance).SessionStart, input)).toEqual([
      {
        hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'Repo: hookwire' },
      },
    ]);
    expect(sources).toEqual(['startup']);
  });

  it('PermissionRequest: a settings-file hook denies Claude’s Bash, an in-process hook allows a Write with updatedInput in Claude’s names, no decision leaves it to the SDK', async () => {
    const seen = `${fixture.project.dir}/permission-input.json`;
    const decider = await fixture.project.script(
      'decide.sh',
      `cat > "${seen}"; echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no shell for you"}}}'`,
    );
    const settings = await fixture.project.settings('hooks.json', {
      PermissionRequest: [group([{ command: decider }], { matcher: 'shell' })],
    });
    const instance = await open({
      settings: [settings],
      hooks: [
        {
          name: 'sandbox writes',
          onPermissionRequest: (_context, event) =>
            event.toolName === 'write_file'
              ? PermissionRequestAction.allow({
                  ...(event.args as Record<string, unknown>),
                  path: `/sandbox${(event.args as { path: string }).path}`,
                })
              : PermissionRequestAction.continue(),
        },
      ],
    });
    const hooks = toClaudeAgentHooks(instance);
    const request = (tool_name: string, tool_input: unknown): PermissionRequestHookInput => ({
      ...base(),
      hook_event_name: 'PermissionRequest',
      permission_mode: 'default',
      tool_name,
      tool_input,
    });
    expect(
      await fire(hooks.PermissionRequest, request('Bash', { command: 'rm -rf /' }), 'toolu_9'),
    ).toEqual([
      {
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: { behavior: 'deny', message: 'no shell for you' },
        },
      },
    ]);
    const { readFile } = await import('node:fs/promises');
    // The command hook saw hookwire's names, the tool use id and the agent's mode.
    expect(JSON.parse(await readFile(seen, 'utf8'))).toMatchObject({
      hook_event_name: 'PermissionRequest',
      tool_name: 'shell',
      tool_input: { command: 'rm -rf /' },
      tool_call_id: 'toolu_9',
      permission_mode: 'default',
      session_id: 'claude-session-1',
    });
    expect(
      await fire(
        hooks.PermissionRequest,
        request('Write', { file_path: '/etc/hosts', content: 'x' }),
        'toolu_10',
      ),
    ).toEqual([
      {
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: {
            behavior: 'allow',
            updatedInput: { file_path: '/sandbox/etc/hosts', content: 'x' },
          },
        },
      },
    ]);
    expect(await fire(hooks.PermissionRequest, request('Grep', { pattern: 'x' }))).toEqual([{}]);
  });
});
