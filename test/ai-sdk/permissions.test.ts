/**
 * Permission rules, modes and `PermissionRequest` in `hookwire/ai-sdk`, through the real `ai`
 * package and its mock language model: the wrapped tools check the settings' `permissions` (and
 * `permissionMode`) after PreToolUse exactly as `hookwire run` does — a deny rule stops a tool,
 * an asked call goes to PermissionRequest hooks (settings-file command hooks and in-process
 * `onPermissionRequest`), and nobody deciding refuses the call with a `permission_prompt`
 * Notification.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isStepCount, jsonSchema, tool, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ObservationAction,
  PermissionRequestAction,
  ToolCallAction,
  type AgentHook,
  type NotificationEvent,
  type PermissionRequestEvent,
} from '../../src/index.ts';
import { createHookwire, type Hookwire } from '../../src/ai-sdk.ts';
import { group, textAnswer, toolCallAnswer, toolOutputsOf, useHookwireFixture } from './support.ts';

const fixture = useHookwireFixture(createHookwire);
const { open } = fixture;

/** Writes a settings file with `permissions` and (optionally) `hooks`; returns its path. */
async function settingsFile(content: Record<string, unknown>): Promise<string> {
  const path = join(fixture.project.dir, 'settings.json');
  await writeFile(path, JSON.stringify(content));
  return path;
}

/** A tool that records every input it runs with. */
function recordingTool(
  ran: unknown[],
  properties: Record<string, { readonly type: 'string' }>,
  required: string[],
) {
  return tool({
    description: 'A recording tool',
    inputSchema: jsonSchema<Record<string, unknown>>({
      type: 'object',
      properties,
      required,
      additionalProperties: false,
    }),
    execute: async (input: Record<string, unknown>) => {
      ran.push(input);
      return { ok: true };
    },
  });
}

const pathTool = (ran: unknown[]) => recordingTool(ran, { path: { type: 'string' } }, ['path']);

/** One tool call, then a text answer: the second model call carries the tool's result. */
function oneCall(toolName: string, input: unknown): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: [toolCallAnswer('call-1', toolName, input), textAnswer('done')],
  });
}

async function runOne(
  instance: Hookwire,
  model: MockLanguageModelV4,
  tools: ToolSet,
): Promise<unknown[]> {
  const result = await instance.generateText({
    model,
    tools,
    prompt: 'go',
    stopWhen: isStepCount(3),
  });
  expect(result.text).toBe('done');
  expect(model.doGenerateCalls).toHaveLength(2);
  return toolOutputsOf(model.doGenerateCalls[1]!);
}

describe('permission rules in wrapped tools', () => {
  it('a deny rule in a settings file stops the tool: execute never runs, the model sees why', async () => {
    const settings = await settingsFile({ permissions: { deny: ['read_file(.env)'] } });
    const instance = await open({ settings: [settings] });
    const ran: unknown[] = [];
    const outputs = await runOne(instance, oneCall('read_file', { path: '.env' }), {
      read_file: pathTool(ran),
    });
    expect(ran).toEqual([]);
    expect(outputs).toEqual([
      {
        type: 'error-text',
        value: 'Permission denied: denied by the permission rule read_file(.env).',
      },
    ]);
  });

  it('the deny rule binds the arguments as PreToolUse rewrote them', async () => {
    const settings = await settingsFile({ permissions: { deny: ['read_file(.env)'] } });
    const redirect: AgentHook = {
      name: 'redirect',
      onToolCall: () => ToolCallAction.rewrite({ path: '.env' }),
    };
    const instance = await open({ settings: [settings], hooks: [redirect] });
    const ran: unknown[] = [];
    const outputs = await runOne(instance, oneCall('read_file', { path: 'README.md' }), {
      read_file: pathTool(ran),
    });
    expect(ran).toEqual([]);
    expect(outputs).toEqual([
      { type: 'error-text', value: expect.stringContaining('read_file(.env)') as string },
    ]);
  });

  it('reads run and allowed calls run; the mode given as permissionMode applies (plan refuses edits)', async () => {
    const settings = await settingsFile({ permissions: { allow: ['write_file(notes/**)'] } });
    const instance = await open({ settings: [settings], permissionMode: 'plan' });
    const ran: unknown[] = [];
    const tools = { read_file: pathTool(ran), write_file: pathTool(ran) };
    expect(await runOne(instance, oneCall('read_file', { path: 'a.txt' }), tools)).toEqual([
      { type: 'json', value: { ok: true } },
    ]);
    const refused = await runOne(instance, oneCall('write_file', { path: 'notes/x.md' }), tools);
    expect(refused).toEqual([
      { type: 'error-text', value: expect.stringContaining('plan mode') as string },
    ]);
    expect(ran).toEqual([{ path: 'a.txt' }]);
  });

  it('with no permissions and no mode every call runs, as before rules existed', async () => {
    const instance = await open();
    const ran: unknown[] = [];
    await runOne(instance, oneCall('deploy', { path: 'prod' }), { deploy: pathTool(ran) });
    expect(ran).toEqual([{ path: 'prod' }]);
  });
});

describe('PermissionRequest in wrapped tools', () => {
  /** A settings-file PermissionRequest hook deciding by the asked path; logs each payload. */
  async function deciderSettings(): Promise<{ settings: string; log: string }> {
    const log = join(fixture.project.dir, 'requests.log');
    const decider = await fixture.project.script(
      'decide.sh',
      `payload=$(cat); printf '%s\\n' "$payload" >> "${log}"
case "$payload" in
  *'"path":"allowed.txt"'*) echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}' ;;
  *'"path":"denied.txt"'*) echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"denied.txt is off limits"}}}' ;;
  *'"path":"exit2.txt"'*) echo "exit 2 says no" >&2; exit 2 ;;
esac`,
    );
    const settings = await settingsFile({
      permissions: { ask: ['write_file'] },
      hooks: { PermissionRequest: [group([{ command: decider }], { matcher: 'write_file' })] },
    });
    return { settings, log };
  }

  it('a settings-file hook’s allow runs the asked call, its deny (JSON or exit 2) does not', async () => {
    const { settings, log } = await deciderSettings();
    const instance = await open({ settings: [settings] });
    const ran: unknown[] = [];
    const tools = { write_file: pathTool(ran) };
    expect(await runOne(instance, oneCall('write_file', { path: 'allowed.txt' }), tools)).toEqual([
      { type: 'json', value: { ok: true } },
    ]);
    expect(await runOne(instance, oneCall('write_file', { path: 'denied.txt' }), tools)).toEqual([
      { type: 'error-text', value: 'Permission denied: denied.txt is off limits' },
    ]);
    expect(await runOne(instance, oneCall('write_file', { path: 'exit2.txt' }), tools)).toEqual([
      { type: 'error-text', value: 'Permission denied: exit 2 says no' },
    ]);
    expect(ran).toEqual([{ path: 'allowed.txt' }]);
    const payloads = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(payloads).toHaveLength(3);
    expect(payloads[0]).toMatchObject({
      hook_event_name: 'PermissionRequest',
      tool_name: 'write_file',
      tool_input: { path: 'allowed.txt' },
      tool_call_id: 'call-1',
      permission_mode: 'default',
      permission_rule: 'write_file',
      session_id: instance.sessionId,
    });
  });

  it('an in-process hook’s updatedInput runs instead, re-validated against the tool’s schema', async () => {
    const settings = await settingsFile({ permissions: { ask: ['write_file'] } });
    const seen: PermissionRequestEvent[] = [];
    const decider: AgentHook = {
      name: 'decider',
      onPermissionRequest: (_context, event) => {
        seen.push(event);
        const path = (event.args as { path: string }).path;
        if (path === 'draft.md') return PermissionRequestAction.allow({ path: 'drafts/draft.md' });
        if (path === 'bad.md') return PermissionRequestAction.allow({ wrong: 1 });
        return PermissionRequestAction.continue();
      },
    };
    const instance = await open({ settings: [settings], hooks: [decider] });
    const ran: unknown[] = [];
    // A zod input schema: the AI SDK validates with it, and so does the permission check.
    const writeTool = tool({
      description: 'Write a file',
      inputSchema: z.object({ path: z.string() }).strict(),
      execute: async (input: { path: string }) => {
        ran.push(input);
        return { ok: true };
      },
    });
    const tools = { write_file: writeTool };
    expect(await runOne(instance, oneCall('write_file', { path: 'draft.md' }), tools)).toEqual([
      { type: 'json', value: { ok: true } },
    ]);
    const invalid = await runOne(instance, oneCall('write_file', { path: 'bad.md' }), tools);
    expect(invalid).toEqual([
      {
        type: 'error-text',
        value: expect.stringContaining(
          "Permission denied: the PermissionRequest answer's updatedInput does not match the tool's schema",
        ) as string,
      },
    ]);
    expect(ran).toEqual([{ path: 'drafts/draft.md' }]);
    expect(seen[0]).toMatchObject({
      toolName: 'write_file',
      toolCallId: 'call-1',
      rule: 'write_file',
      mode: 'default',
    });
  });

  it('no hook deciding refuses the call and fires a permission_prompt Notification', async () => {
    const settings = await settingsFile({ permissions: {} });
    const notifications: NotificationEvent[] = [];
    const listener: AgentHook = {
      name: 'listener',
      onNotification: (_context, event) => {
        notifications.push(event);
        return ObservationAction.continue();
      },
    };
    const instance = await open({ settings: [settings], hooks: [listener] });
    const ran: unknown[] = [];
    const outputs = await runOne(instance, oneCall('deploy', { path: 'prod' }), {
      deploy: pathTool(ran),
    });
    expect(ran).toEqual([]);
    expect(outputs).toEqual([
      {
        type: 'error-text',
        value: expect.stringContaining(
          'deploy needs permission (deploy needs approval in default mode',
        ) as string,
      },
    ]);
    expect(notifications).toEqual([
      {
        notificationType: 'permission_prompt',
        message: expect.stringContaining('no PermissionRequest hook decided') as string,
        details: {
          tool_name: 'deploy',
          tool_input: { path: 'prod' },
          tool_call_id: 'call-1',
          permission_mode: 'default',
        },
      },
    ]);
  });

  it('permissionToolKinds tells the modes which app tools read: a read runs without asking', async () => {
    const settings = await settingsFile({ permissions: {} });
    const instance = await open({
      settings: [settings],
      permissionToolKinds: {
        read: new Set(['lookup']),
        edit: new Set(),
        shell: new Set(),
      },
    });
    const ran: unknown[] = [];
    await runOne(instance, oneCall('lookup', { path: 'a' }), { lookup: pathTool(ran) });
    expect(ran).toEqual([{ path: 'a' }]);
  });
});
