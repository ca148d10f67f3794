import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { toHookLLMRequest } from '../wire/llm-request.ts';
import { toHookLLMResponse } from '../wire/llm-response.ts';
import { HOOK_EVENT_NAMES, type HookEventName, type HookInputFieldsMap } from './catalogue.ts';
import { buildHookInput, hookInputSchemas } from './hook-input.ts';
import { generateJsonSchemas } from './json-schemas.ts';

const context = {
  session_id: 'session-1',
  transcript_path: '/tmp/session-1.jsonl',
  cwd: '/work/project',
  timestamp: '2026-01-02T03:04:05.678Z',
};

const request = toHookLLMRequest({
  model: 'scripted',
  contents: [{ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] }],
  tools: [{ name: 'read_file', parameters: { type: 'object' } }],
});

/** One realistic field set per event: the samples every schema test runs against. */
const sampleFields: { readonly [E in HookEventName]: HookInputFieldsMap[E] } = {
  SessionStart: { source: 'startup' },
  UserPromptSubmit: { prompt: 'Tidy the workspace' },
  BeforeModel: { llm_request: request },
  BeforeToolSelection: { llm_request: { ...request, tools: request.tools ?? [] } },
  AfterModel: {
    llm_request: request,
    llm_response: toHookLLMResponse({
      content: { speaker: 'ai', blocks: [{ type: 'text', text: 'done' }] },
      finishReason: 'stop',
      rawStopReason: 'end_turn',
      usage: { promptTokens: 3, completionTokens: 1 },
    }),
  },
  PreToolUse: { tool_name: 'read_file', tool_input: { path: 'a.txt' }, tool_call_id: 'call_1' },
  PermissionRequest: {
    tool_name: 'write_file',
    tool_input: { path: 'a.txt', content: 'x' },
    tool_call_id: 'call_1',
    permission_mode: 'default',
    permission_rule: 'write_file',
    permission_reason: 'the permission rule write_file asks',
  },
  PostToolUse: {
    tool_name: 'read_file',
    tool_input: { path: 'a.txt' },
    tool_call_id: 'call_1',
    tool_response: { content: 'hello' },
  },
  PostToolUseFailure: {
    tool_name: 'read_file',
    tool_input: { path: 'missing.txt' },
    tool_call_id: 'call_2',
    error: 'ENOENT: no such file',
  },
  SubagentStart: {
    agent_id: 'agent-1',
    agent_type: 'general-purpose',
    prompt: 'List the TODOs',
    description: 'Find TODOs',
  },
  SubagentStop: {
    agent_id: 'agent-1',
    agent_type: 'general-purpose',
    stop_hook_active: false,
    result: 'Two TODOs.',
    agent_transcript_path: '/tmp/s.agents/agent-1.jsonl',
  },
  Stop: { stop_hook_active: false, prompt: 'Tidy the workspace', prompt_response: 'Done.' },
  StopFailure: { error: 'safety', error_details: { rawStopReason: 'SAFETY' } },
  Interrupt: { prompt: 'Tidy the workspace' },
  PreCompact: { trigger: 'auto' },
  PostCompact: {
    trigger: 'auto',
    summary: 'Earlier: read a.txt.',
    tokens_before: 9000,
    tokens_after: 1200,
  },
  Notification: { notification_type: 'ToolPermission', message: 'Allow write_file?' },
  SessionEnd: { reason: 'exit' },
};

describe('buildHookInput', () => {
  it('puts the base fields first, then the event fields', () => {
    const input = buildHookInput('PreToolUse', context, sampleFields.PreToolUse);
    expect(Object.keys(input)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'hook_event_name',
      'timestamp',
      'tool_name',
      'tool_input',
      'tool_call_id',
    ]);
  });

  it('names the subagent after cwd when the event fired inside one', () => {
    const input = buildHookInput(
      'PreToolUse',
      { ...context, agent_id: 'agent-1', agent_type: 'explorer' },
      sampleFields.PreToolUse,
    );
    expect(Object.keys(input).slice(0, 6)).toEqual([
      'session_id',
      'transcript_path',
      'cwd',
      'agent_id',
      'agent_type',
      'hook_event_name',
    ]);
    expect(input).toMatchObject({ agent_id: 'agent-1', agent_type: 'explorer' });
    expect(hookInputSchemas.PreToolUse.safeParse(input).success).toBe(true);
  });

  it('uses the name the hook was registered under', () => {
    expect(buildHookInput('PreToolUse', context, sampleFields.PreToolUse).hook_event_name).toBe(
      'PreToolUse',
    );
    expect(
      buildHookInput('PreToolUse', context, sampleFields.PreToolUse, 'BeforeTool').hook_event_name,
    ).toBe('BeforeTool');
  });

  it('stamps the current time as an ISO timestamp when none is given', () => {
    const before = Date.now();
    const { timestamp } = buildHookInput(
      'SessionEnd',
      { session_id: 's', transcript_path: '', cwd: '/' },
      { reason: 'exit' },
    );
    expect(Date.parse(timestamp)).toBeGreaterThanOrEqual(before - 1);
    expect(timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('passes event fields by reference (no copy of requests or tool input)', () => {
    const input = buildHookInput('BeforeModel', context, sampleFields.BeforeModel);
    expect(input.llm_request).toBe(request);
    expect(input.llm_request.contents).toBe(request.contents);
  });

  it.each(HOOK_EVENT_NAMES)('builds a %s payload its schema accepts', (event) => {
    const input = buildHookInput(event, context, sampleFields[event] as never);
    const parsed = hookInputSchemas[event].safeParse(input);
    expect(parsed.error?.issues).toBeUndefined();
  });

  it('every schema requires the base fields and rejects unknown ones', () => {
    const input = buildHookInput('Stop', context, sampleFields.Stop);
    const { cwd: _, ...withoutCwd } = input;
    expect(hookInputSchemas.Stop.safeParse(withoutCwd).success).toBe(false);
    expect(hookInputSchemas.Stop.safeParse({ ...input, extra: 1 }).success).toBe(false);
  });

  it('rejects values outside the documented enumerations', () => {
    const base = buildHookInput('SessionStart', context, { source: 'startup' });
    expect(hookInputSchemas.SessionStart.safeParse({ ...base, source: 'compact' }).success).toBe(
      true,
    );
    expect(hookInputSchemas.SessionStart.safeParse({ ...base, source: 'reboot' }).success).toBe(
      false,
    );
    expect(
      hookInputSchemas.SessionStart.safeParse({ ...base, hook_event_name: 'SessionEnd' }).success,
    ).toBe(false);
    expect(
      hookInputSchemas.SessionStart.safeParse({ ...base, timestamp: 'yesterday' }).success,
    ).toBe(false);
  });

  it('requires tools on the BeforeToolSelection request and version 2 on model envelopes', () => {
    const { tools: _, ...withoutTools } = request;
    const input = buildHookInput('BeforeToolSelection', context, sampleFields.BeforeToolSelection);
    expect(
      hookInputSchemas.BeforeToolSelection.safeParse({ ...input, llm_request: withoutTools })
        .success,
    ).toBe(false);
    const { version: __, ...unversioned } = request;
    const beforeModel = buildHookInput('BeforeModel', context, sampleFields.BeforeModel);
    expect(
      hookInputSchemas.BeforeModel.safeParse({ ...beforeModel, llm_request: unversioned }).success,
    ).toBe(false);
  });
});

function validator(file: string) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  // The schemas carry a full date-time pattern; the format only needs to be known to strict mode.
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  const text = generateJsonSchemas().get(file);
  if (text === undefined) throw new Error(`no generated schema ${file}`);
  return ajv.compile(JSON.parse(text) as object);
}

describe('hook input schemas (ajv)', () => {
  it.each(HOOK_EVENT_NAMES)(
    'accept a real %s payload and reject one missing its fields',
    (event) => {
      const validate = validator(`hook-input.${event}.schema.json`);
      const payload = buildHookInput(event, context, sampleFields[event] as never);
      expect(validate(payload), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...payload, session_id: 1 })).toBe(false);
      expect(validate({ ...payload, unexpected: true })).toBe(false);
    },
  );
});
