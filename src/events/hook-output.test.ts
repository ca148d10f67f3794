import { describe, expect, it } from 'vitest';
import { decodeHookOutput } from './hook-output.ts';

function issuesOf(result: ReturnType<typeof decodeHookOutput>): unknown {
  return result.ok ? 'decoded' : result.error.issues;
}

describe('decodeHookOutput: common fields', () => {
  it('accepts the common fields of every event', () => {
    const output = {
      continue: false,
      stopReason: 'policy',
      suppressOutput: true,
      systemMessage: 'stopped by policy',
      decision: 'allow',
      reason: 'ok',
    };
    expect(decodeHookOutput('SessionEnd', output)).toEqual({
      ok: true,
      value: { ...output, rawDecision: 'allow' },
    });
  });

  it.each([
    ['approve', 'allow'],
    ['allow', 'allow'],
    ['block', 'deny'],
    ['deny', 'deny'],
  ] as const)('normalises decision %s to %s and keeps the raw word', (raw, normalised) => {
    const result = decodeHookOutput('Stop', { decision: raw, reason: 'again' });
    expect(result.ok && result.value.decision).toBe(normalised);
    expect(result.ok && result.value.rawDecision).toBe(raw);
  });

  it('accepts an empty object as "no opinion"', () => {
    expect(decodeHookOutput('PreToolUse', {})).toEqual({ ok: true, value: {} });
  });

  it('decodes {} as the schema does for every event, and still checks a non-empty answer', () => {
    for (const event of [
      'PreToolUse',
      'PostToolUse',
      'Stop',
      'SessionStart',
      'UserPromptSubmit',
    ] as const) {
      expect(decodeHookOutput(event, {})).toEqual({ ok: true, value: {} });
      expect(decodeHookOutput(event, {}).ok && decodeHookOutput(event, {})).not.toBe(
        decodeHookOutput(event, {}),
      );
      expect(decodeHookOutput(event, { colour: 'red' }).ok).toBe(false);
    }
  });

  it('rejects a top-level "ask" pointing at permissionDecision', () => {
    expect(issuesOf(decodeHookOutput('PreToolUse', { decision: 'ask' }))).toEqual([
      {
        path: '$.decision',
        message:
          '"ask" is not a top-level decision; a PreToolUse hook asks with `hookSpecificOutput.permissionDecision: "ask"`',
      },
    ]);
  });

  it('rejects wrongly typed common fields with their paths', () => {
    expect(issuesOf(decodeHookOutput('Stop', { continue: 'no', systemMessage: 3 }))).toEqual([
      { path: '$.continue', message: 'expected a boolean, got a string' },
      { path: '$.systemMessage', message: 'expected a string, got a number' },
    ]);
  });

  it('rejects unknown top-level fields, pointing event fields at hookSpecificOutput', () => {
    expect(
      issuesOf(decodeHookOutput('SessionStart', { additionalContext: 'x', colour: 'red' })),
    ).toEqual([
      {
        path: '$.additionalContext',
        message: 'unknown field `additionalContext`: put it inside `hookSpecificOutput`',
      },
      { path: '$.colour', message: 'unknown field `colour`' },
    ]);
  });

  it('rejects output that is not an object', () => {
    for (const [value, got] of [
      [[1], 'an array'],
      [null, 'null'],
      ['text', 'string'],
    ] as const)
      expect(issuesOf(decodeHookOutput('Stop', value))).toEqual([
        { path: '$', message: `expected a JSON object, got ${got}` },
      ]);
  });

  it('rejects an unknown event', () => {
    expect(issuesOf(decodeHookOutput('BeforeEverything' as 'Stop', {}))).toEqual([
      { path: '$', message: 'unknown event "BeforeEverything"' },
    ]);
  });
});

describe('decodeHookOutput: hookSpecificOutput per event', () => {
  it.each([
    'SessionStart',
    'UserPromptSubmit',
    'PostToolUse',
    'PostToolUseFailure',
    'PreCompact',
  ] as const)('%s accepts additionalContext', (event) => {
    const result = decodeHookOutput(event, {
      hookSpecificOutput: { hookEventName: event, additionalContext: 'note' },
    });
    expect(result.ok && result.value.hookSpecificOutput).toEqual({
      hookEventName: event,
      additionalContext: 'note',
    });
  });

  it('rejects a field of another event naming the events that take it', () => {
    expect(
      issuesOf(decodeHookOutput('PreToolUse', { hookSpecificOutput: { additionalContext: 'x' } })),
    ).toMatchInlineSnapshot(`
        [
          {
            "message": "unknown field \`additionalContext\`: not an output of PreToolUse (it belongs to SessionStart, UserPromptSubmit, PostToolUse, PostToolUseFailure, SubagentStart, PreCompact)",
            "path": "$.hookSpecificOutput.additionalContext",
          },
        ]
      `);
  });

  it('rejects a field no event reads', () => {
    expect(
      issuesOf(decodeHookOutput('Notification', { hookSpecificOutput: { silence: true } })),
    ).toEqual([
      {
        path: '$.hookSpecificOutput.silence',
        message: 'unknown field `silence`: Notification reads no such hookSpecificOutput field',
      },
    ]);
  });

  it('accepts hookEventName as the canonical name or an alias, and rejects another event', () => {
    expect(
      decodeHookOutput('PreToolUse', { hookSpecificOutput: { hookEventName: 'BeforeTool' } }).ok,
    ).toBe(true);
    expect(
      decodeHookOutput('BeforeTool', { hookSpecificOutput: { hookEventName: 'PreToolUse' } }).ok,
    ).toBe(true);
    expect(
      issuesOf(
        decodeHookOutput('PreToolUse', { hookSpecificOutput: { hookEventName: 'PostToolUse' } }),
      ),
    ).toEqual([
      {
        path: '$.hookSpecificOutput.hookEventName',
        message:
          'hookEventName "PostToolUse" does not match the event this hook ran for (PreToolUse or BeforeTool)',
      },
    ]);
  });

  it('PreToolUse: permission decision, merged arguments (tool_input) and replaced arguments (updatedInput)', () => {
    const toolInput = { path: '/safe/a.txt' };
    const merged = decodeHookOutput('PreToolUse', {
      hookSpecificOutput: {
        permissionDecision: 'ask',
        permissionDecisionReason: 'outside workspace',
        tool_input: toolInput,
      },
    });
    expect(merged.ok && merged.value.hookSpecificOutput?.tool_input).toBe(toolInput);
    const replaced = decodeHookOutput('PreToolUse', {
      hookSpecificOutput: { updatedInput: toolInput },
    });
    expect(replaced.ok && replaced.value.hookSpecificOutput?.updatedInput).toBe(toolInput);
  });

  it('PreToolUse: rejects both tool_input and updatedInput, and a bad permissionDecision', () => {
    expect(
      issuesOf(
        decodeHookOutput('PreToolUse', {
          hookSpecificOutput: { tool_input: {}, updatedInput: {} },
        }),
      ),
    ).toEqual([
      {
        path: '$.hookSpecificOutput',
        message:
          'give either `tool_input` (merged over the arguments) or `updatedInput` (replaces them), not both',
      },
    ]);
    expect(
      issuesOf(
        decodeHookOutput('PreToolUse', {
          hookSpecificOutput: { permissionDecision: 'maybe', tool_input: [] },
        }),
      ),
    ).toEqual([
      {
        path: '$.hookSpecificOutput.permissionDecision',
        message: '"maybe" is not allowed; expected "allow", "deny", "ask"',
      },
      { path: '$.hookSpecificOutput.tool_input', message: 'expected an object, got an array' },
    ]);
  });

  it.each(['updatedToolOutput', 'tool_response', 'updatedMCPToolOutput'])(
    'PostToolUse: %s replaces the output, decoded as updatedToolOutput',
    (name) => {
      const replacement = { content: '[redacted]' };
      const result = decodeHookOutput('AfterTool', {
        hookSpecificOutput: { [name]: replacement, additionalContext: 'a' },
      });
      if (!result.ok) throw result.error;
      expect(result.value.hookSpecificOutput).toEqual({
        updatedToolOutput: replacement,
        additionalContext: 'a',
      });
      expect(result.value.hookSpecificOutput?.updatedToolOutput).toBe(replacement);
    },
  );

  it('PostToolUse: a null replacement is a replacement', () => {
    const result = decodeHookOutput('PostToolUse', { hookSpecificOutput: { tool_response: null } });
    expect(result.ok && 'updatedToolOutput' in (result.value.hookSpecificOutput ?? {})).toBe(true);
  });

  it('PostToolUse: rejects two names for the replacement', () => {
    expect(
      issuesOf(
        decodeHookOutput('PostToolUse', {
          hookSpecificOutput: { tool_response: 1, updatedToolOutput: 2 },
        }),
      ),
    ).toEqual([
      {
        path: '$.hookSpecificOutput',
        message: 'give the replacement output once; found `updatedToolOutput`, `tool_response`',
      },
    ]);
  });

  it('BeforeModel: llm_request override and synthetic llm_response keep their blocks by reference', () => {
    const toolCall = { type: 'tool_call', id: 'c', name: 'ls', parameters: {} };
    const contents = [{ speaker: 'ai', blocks: [toolCall] }];
    const response = {
      content: { speaker: 'ai', blocks: [{ type: 'text', text: 'cached' }] },
      finishReason: 'stop',
    };
    const result = decodeHookOutput('BeforeModel', {
      hookSpecificOutput: {
        llm_request: { contents, settings: { temperature: 0 } },
        llm_response: response,
      },
    });
    if (!result.ok) throw result.error;
    expect(result.value.hookSpecificOutput?.llm_request?.contents).toBe(contents);
    expect(result.value.hookSpecificOutput?.llm_request?.contents?.[0]?.blocks[0]).toBe(toolCall);
    expect(result.value.hookSpecificOutput?.llm_response).toBe(response);
  });

  it('BeforeModel: rejects v1 llm_request and non-canonical finish reasons with nested paths', () => {
    const result = decodeHookOutput('BeforeModel', {
      hookSpecificOutput: {
        llm_request: { messages: [] },
        llm_response: { content: { speaker: 'ai', blocks: [] }, finishReason: 'STOP' },
      },
    });
    expect(result.ok ? '' : result.error.message).toMatchInlineSnapshot(`
      "BeforeModel hook output is invalid:
        $.hookSpecificOutput.llm_request.messages: \`messages\` is a v1 field; the v2 wire uses \`contents\` (an array of {speaker, blocks} messages)
        $.hookSpecificOutput.llm_response.finishReason: "STOP" is not a canonical finish reason: use \`stop\` and keep "STOP" in \`rawStopReason\` (canonical: stop, max_tokens, tool_calls, safety, refusal, error, other)"
    `);
  });

  it('AfterModel: a replacement response must carry content with blocks', () => {
    expect(
      issuesOf(
        decodeHookOutput('AfterModel', {
          hookSpecificOutput: { llm_response: { content: { speaker: 'ai' } } },
        }),
      ),
    ).toEqual([
      {
        path: '$.hookSpecificOutput.llm_response.content.blocks',
        message: 'required field is missing (expected an array)',
      },
    ]);
  });

  it('BeforeToolSelection: accepts toolChoice, rejects a v1 toolConfig naming toolChoice', () => {
    const toolChoice = { mode: 'required', allowedToolNames: ['read_file'] };
    const result = decodeHookOutput('BeforeToolSelection', { hookSpecificOutput: { toolChoice } });
    expect(result.ok && result.value.hookSpecificOutput?.toolChoice).toBe(toolChoice);
    expect(
      issuesOf(
        decodeHookOutput('BeforeToolSelection', {
          hookSpecificOutput: { toolConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] } },
        }),
      ),
    ).toEqual([
      {
        path: '$.hookSpecificOutput.toolConfig',
        message:
          '`toolConfig` is a v1 field; the v2 wire uses `toolChoice` ({mode: "auto" | "required" | "none", allowedToolNames?})',
      },
    ]);
  });

  it('Stop (AfterAgent): accepts clearContext', () => {
    expect(
      decodeHookOutput('AfterAgent', {
        decision: 'deny',
        reason: 'add tests',
        hookSpecificOutput: { clearContext: true },
      }).ok,
    ).toBe(true);
  });

  it('does not change the output it decodes', () => {
    const output = { decision: 'block', hookSpecificOutput: { tool_response: 'x' } };
    decodeHookOutput('PostToolUse', output);
    expect(output).toEqual({ decision: 'block', hookSpecificOutput: { tool_response: 'x' } });
  });
});
