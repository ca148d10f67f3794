/**
 * How hooks steer a run — retries, invalid tool calls, tool execution, request patches, tool
 * choice and denials — on the real loop, on both surfaces.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  CompletionCallAction,
  InvalidToolCallAction,
  ModelOutputAction,
  ModelTurnAction,
  PromptSubmitAction,
  ToolCallAction,
  ToolResultAction,
  ToolSelectionAction,
} from '../../src/events/index.ts';
import type { Message } from '../../src/content/index.ts';
import type { Tool } from '../../src/loop/tool.ts';
import { historyOf, type TranscriptRecord } from '../../src/loop/index.ts';
import {
  callTools,
  collect,
  deferred,
  echoTool,
  failingTool,
  lastRequestText,
  loggingHook,
  say,
  start,
  SURFACES,
} from './support.ts';

const toolMessages = (history: readonly Message[]) =>
  history.filter((message) => message.speaker === 'tool');

describe.each(SURFACES)('steering ($name)', ({ streaming }) => {
  it('retries a tool-free turn with feedback, keeping the rejected answer, and announces the retry', async () => {
    const { session, model } = await start({
      script: [say('RETRY me'), say('Complete answer.')],
      hooks: [
        loggingHook([], {
          onModelTurnFinished: (_context, event) =>
            event.content.blocks.some(
              (block) => block.type === 'text' && block.text.includes('RETRY'),
            )
              ? ModelTurnAction.retryWithFeedback('Return a complete answer.')
              : ModelTurnAction.continue(),
        }),
      ],
    });
    const { result, events } = await collect(session.run('q', { streaming }));
    expect(result).toMatchObject({
      status: 'completed',
      result: 'Complete answer.',
      modelCalls: 2,
    });
    expect(lastRequestText(model, 1)).toBe('Return a complete answer.');
    expect(model.requests[1]?.contents.map((message) => message.speaker)).toEqual([
      'human',
      'ai',
      'human',
    ]);
    expect(events.filter((event) => event.type === 'model-turn-retried')).toEqual([
      { type: 'model-turn-retried', modelCall: 1, retry: 'feedback' },
    ]);
  });

  it('repeats a turn discarding the answer, and the retries count against the budget', async () => {
    const { session, model } = await start({
      script: [say('a'), say('b'), say('c')],
      hooks: [loggingHook([], { onModelTurnFinished: () => ModelTurnAction.repeat() })],
      agent: { maxModelCalls: 2 },
    });
    const { result } = await collect(session.run('q', { streaming }));
    expect(result.status).toBe('budget_exhausted');
    expect(model.callCount).toBe(2);
    expect(model.requests[1]?.contents).toHaveLength(1);
  });

  it('refuses to retry a turn that called tools, with a warning, and accepts it', async () => {
    const { session } = await start({
      script: [callTools([{ id: 'c1', name: 'echo', args: { text: 'x' } }]), say('fine')],
      hooks: [
        loggingHook([], {
          onModelTurnFinished: (_context, event) =>
            event.hasToolCalls ? ModelTurnAction.repeat() : ModelTurnAction.continue(),
        }),
      ],
    });
    const { result, events } = await collect(session.run('q', { streaming }));
    expect(result.status).toBe('completed');
    expect(
      events.some(
        (event) =>
          event.type === 'hook-report' &&
          event.report.level === 'warning' &&
          event.report.text.includes('tool-free'),
      ),
    ).toBe(true);
  });

  it.each([
    {
      name: 'an unknown tool',
      call: { id: 'c1', name: 'nonexistent', args: {} },
      reason: 'unknown_tool',
      detail: 'unknown tool "nonexistent"; available tools: echo, explode',
    },
    {
      name: 'arguments failing the schema',
      call: { id: 'c1', name: 'echo', args: { text: 42 } },
      reason: 'invalid_arguments',
      detail: 'the arguments of tool "echo" do not match its schema',
    },
  ])(
    'answers $name with its error as the tool result when no hook decides, so the model corrects itself, and records it',
    async ({ call, reason, detail }) => {
      const { session, model } = await start({
        script: [
          callTools([call, { id: 'c2', name: 'echo', args: { text: 'valid sibling' } }]),
          callTools([{ id: 'c3', name: 'echo', args: { text: 'fixed' } }]),
          say('done'),
        ],
        // A hook that defers (undefined) leaves the decision to the default.
        hooks: [loggingHook([], { onInvalidToolCall: () => undefined })],
      });
      const { result, events } = await collect(session.run('q', { streaming }));
      expect(result.status).toBe('completed');
      expect(result.result).toBe('done');
      const toolMessage = model.requests[1]?.contents.at(-1);
      expect(toolMessage?.speaker).toBe('tool');
      const [invalid, sibling] = toolMessage?.blocks ?? [];
      expect(invalid).toMatchObject({ type: 'tool_response', callId: 'c1', result: null });
      expect((invalid as { error?: string }).error).toMatch(
        new RegExp(`^Invalid tool call \\(${reason}\\): .*Correct the call and try again\\.$`),
      );
      expect((invalid as { error?: string }).error).toContain(detail);
      // The valid call of the same step still ran.
      expect(sibling).toMatchObject({ callId: 'c2', result: { text: 'valid sibling' } });
      expect(model.requests[2]?.contents.at(-1)?.blocks[0]).toMatchObject({
        callId: 'c3',
        result: { text: 'fixed' },
      });
      expect(
        events.filter((event) => event.type === 'hook-report').map((event) => event.report.text),
      ).toEqual([expect.stringContaining(`(1 of 5 this turn, invalidToolCallsPerTurn)`)]);
      await session.close('exit');
      const records = (await readFile(session.transcriptPath, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; report?: { event?: string } });
      expect(records.some((record) => record.report?.event === 'invalidToolCall')).toBe(true);
      expect(
        historyOf(records as TranscriptRecord[]).some((message) =>
          message.blocks.some(
            (block) => block.type === 'tool_response' && block.error?.includes(detail) === true,
          ),
        ),
      ).toBe(true);
    },
  );

  it('fails the turn with a clear error once the per-turn budget of invalid calls is spent, and a new turn gets a fresh budget', async () => {
    const bad = (id: string) => callTools([{ id, name: 'nonexistent', args: {} }]);
    const { session, model } = await start({
      script: [bad('a'), bad('b'), bad('c'), bad('d'), say('second turn ok')],
      agent: { invalidToolCallsPerTurn: 2 },
    });
    const first = await collect(session.run('q', { streaming }));
    expect(first.result.status).toBe('failed');
    expect(first.result.error?.message).toContain(
      'The model made an invalid tool call (unknown_tool): unknown tool "nonexistent"',
    );
    expect(first.result.error?.message).toContain(
      'this turn already answered 2 invalid tool call(s) with their error (invalidToolCallsPerTurn: 2)',
    );
    expect(model.callCount).toBe(3);
    const second = await collect(session.run('again', { streaming }));
    expect(second.result.status).toBe('completed');
    expect(second.result.result).toBe('second turn ok');
  });

  it('fails fast on an invalid call with invalidToolCallsPerTurn 0, and when a hook returns fail', async () => {
    const noBudget = await start({
      script: [callTools([{ id: 'c1', name: 'nonexistent', args: {} }])],
      agent: { invalidToolCallsPerTurn: 0 },
    });
    const { result } = await collect(noBudget.session.run('q', { streaming }));
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain('(unknown_tool)');
    expect(result.error?.message).toContain('invalidToolCallsPerTurn is 0');

    const failing = await start({
      script: [callTools([{ id: 'c1', name: 'echo', args: { text: 42 } }])],
      hooks: [loggingHook([], { onInvalidToolCall: () => InvalidToolCallAction.fail() })],
    });
    const hooked = await collect(failing.session.run('q', { streaming }));
    expect(hooked.result.status).toBe('failed');
    expect(hooked.result.error?.message).toContain('(invalid_arguments)');
    expect(hooked.result.error?.message).toContain('An onInvalidToolCall hook failed the run.');
  });

  it('rejects a negative or fractional invalidToolCallsPerTurn', async () => {
    await expect(start({ script: [], agent: { invalidToolCallsPerTurn: -1 } })).rejects.toThrow(
      'invalidToolCallsPerTurn must be a non-negative integer, got -1',
    );
  });

  it('resolves invalid tool calls through each hook action', async () => {
    const cases = [
      {
        action: InvalidToolCallAction.retry('Use the echo tool.'),
        status: 'completed',
        toolError: 'Use the echo tool.',
      },
      {
        action: InvalidToolCallAction.skip('no such tool here'),
        status: 'completed',
        toolError: 'no such tool here',
      },
      { action: InvalidToolCallAction.repair('echo'), status: 'completed', toolError: undefined },
      {
        action: InvalidToolCallAction.stop('giving up'),
        status: 'stopped',
        toolError: 'the run was stopped: giving up',
      },
      { action: InvalidToolCallAction.fail(), status: 'failed', toolError: undefined },
    ] as const;
    for (const testCase of cases) {
      const { session } = await start({
        script: [callTools([{ id: 'c1', name: 'ekho', args: { text: 'x' } }]), say('after')],
        hooks: [loggingHook([], { onInvalidToolCall: () => testCase.action })],
      });
      const { result, events } = await collect(session.run('q', { streaming }));
      expect(result.status, testCase.action.kind).toBe(testCase.status);
      if (testCase.status === 'failed') continue;
      const toolResult = events.find((event) => event.type === 'tool-result');
      expect(toolResult, testCase.action.kind).toMatchObject(
        testCase.toolError === undefined
          ? { toolName: 'echo', result: { text: 'x' } }
          : { error: testCase.toolError },
      );
    }
  });

  it('treats a call to a tool outside the allowlist as invalid', async () => {
    const reasons: string[] = [];
    const { session, model } = await start({
      script: [callTools([{ id: 'c1', name: 'explode', args: {} }]), say('ok')],
      hooks: [
        loggingHook([], {
          onToolSelection: () =>
            ToolSelectionAction.choose({ mode: 'auto', allowedToolNames: ['echo'] }),
          onInvalidToolCall: (_context, event) => (
            reasons.push(event.reason),
            InvalidToolCallAction.skip('not allowed')
          ),
        }),
      ],
    });
    await collect(session.run('q', { streaming }));
    expect(reasons).toEqual(['tool_not_allowed']);
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['echo']);
  });

  it('checks each call against the tools offered for its own step when the allowlist changes', async () => {
    const reasons: string[] = [];
    let selections = 0;
    const { session, model } = await start({
      script: [
        callTools([{ id: 'c1', name: 'echo', args: { text: 'one' } }]),
        callTools([{ id: 'c2', name: 'echo', args: { text: 'two' } }]),
        say('ok'),
      ],
      hooks: [
        loggingHook([], {
          onToolSelection: () =>
            ToolSelectionAction.choose({
              mode: 'auto',
              allowedToolNames: ++selections === 2 ? ['explode'] : ['echo'],
            }),
          onInvalidToolCall: (_context, event) => (
            reasons.push(`${event.toolCallId} ${event.reason}`),
            InvalidToolCallAction.skip('not allowed')
          ),
        }),
      ],
    });
    const { result, events } = await collect(session.run('q', { streaming }));
    expect(result.status).toBe('completed');
    expect(reasons).toEqual(['c2 tool_not_allowed']);
    expect(model.requests.map((request) => request.tools?.map((tool) => tool.name))).toEqual([
      ['echo'],
      ['explode'],
      ['echo'],
    ]);
    expect(
      events.filter((event) => event.type === 'tool-result').map((event) => event.toolCallId),
    ).toEqual(['c1', 'c2']);
  });

  it('runs the tool calls of a step concurrently and returns their results in call order', async () => {
    const completed: string[] = [];
    const secondDone = deferred();
    const first: Tool = {
      declaration: { name: 'first', parameters: { type: 'object' } },
      execute: async () => {
        await secondDone.promise;
        completed.push('first');
        return 'one';
      },
    };
    const second: Tool = {
      declaration: { name: 'second', parameters: { type: 'object' } },
      execute: async () => {
        completed.push('second');
        secondDone.resolve();
        return 'two';
      },
    };
    const { session } = await start({
      script: [
        callTools([
          { id: 'a', name: 'first', args: {} },
          { id: 'b', name: 'second', args: {} },
        ]),
        say('done'),
      ],
      tools: [first, second],
    });
    await collect(session.run('q', { streaming }));
    expect(completed).toEqual(['second', 'first']);
    const [toolMessage] = toolMessages(session.history);
    expect(
      toolMessage?.blocks.map(
        (block) => block.type === 'tool_response' && [block.callId, block.result],
      ),
    ).toEqual([
      ['a', 'one'],
      ['b', 'two'],
    ]);
  });

  it('turns a thrown tool error into a tool_response error and fires PostToolUseFailure', async () => {
    const log: string[] = [];
    const { session, model } = await start({
      script: [callTools([{ id: 'c1', name: 'explode', args: {} }]), say('recovered')],
      tools: [echoTool, failingTool],
      hooks: [
        loggingHook(log, {
          onToolFailure: () => ({ kind: 'continue', additionalContext: 'try something else' }),
        }),
      ],
    });
    const { result } = await collect(session.run('q', { streaming }));
    expect(result.status).toBe('completed');
    expect(log).toContain('PostToolUseFailure:explode');
    expect(log).not.toContain('PostToolUse:explode');
    const toolMessage = model.requests[1]?.contents.at(-1);
    expect(toolMessage?.blocks).toEqual([
      {
        type: 'tool_response',
        callId: 'c1',
        toolName: 'explode',
        result: null,
        error: 'the disk is on fire',
      },
      { type: 'text', text: 'try something else' },
    ]);
  });

  it('rewrites arguments, skips with the reason as the tool error, and rewrites what the model sees', async () => {
    const { session } = await start({
      script: [
        callTools([
          { id: 'a', name: 'echo', args: { text: 'rm -rf /' } },
          { id: 'b', name: 'echo', args: { text: 'ls' } },
        ]),
        say('ok'),
      ],
      hooks: [
        loggingHook([], {
          onToolCall: (_context, event) =>
            (event.args as { text: string }).text.startsWith('rm')
              ? ToolCallAction.skip('dangerous command')
              : ToolCallAction.rewrite({ text: 'ls -la' }),
          onToolResult: (_context, event) =>
            event.skipped ? ToolResultAction.keep() : ToolResultAction.rewrite('[listing hidden]'),
        }),
      ],
    });
    await collect(session.run('q', { streaming }));
    const [toolMessage] = toolMessages(session.history);
    expect(toolMessage?.blocks).toEqual([
      {
        type: 'tool_response',
        callId: 'a',
        toolName: 'echo',
        result: null,
        error: 'dangerous command',
      },
      { type: 'tool_response', callId: 'b', toolName: 'echo', result: '[listing hidden]' },
    ]);
  });

  it('answers with a synthetic BeforeModel response without calling the model', async () => {
    const log: string[] = [];
    const { session, model } = await start({
      script: [],
      hooks: [
        loggingHook(log, {
          onCompletionCall: () =>
            CompletionCallAction.respond({
              content: { speaker: 'ai', blocks: [{ type: 'text', text: 'cached answer' }] },
              finishReason: 'stop',
            }),
        }),
      ],
    });
    const { result } = await collect(session.run('q', { streaming }));
    expect(result).toMatchObject({ status: 'completed', result: 'cached answer' });
    expect(model.requests).toHaveLength(0);
    expect(log).toContain('Stop(active=false)');
  });

  it('patches the request the model receives', async () => {
    const { session, model } = await start({
      script: [say('ok')],
      hooks: [
        loggingHook([], {
          onCompletionCall: () =>
            CompletionCallAction.patch({ temperature: 0.1, extraContext: ['Today is Monday.'] }),
        }),
      ],
    });
    await collect(session.run('q', { streaming }));
    expect(model.requests[0]?.settings?.temperature).toBe(0.1);
    expect(lastRequestText(model, 0)).toBe('Today is Monday.');
  });

  it.each([
    { choice: { mode: 'none' }, tools: undefined, toolChoice: { mode: 'none' } },
    { choice: { mode: 'required' }, tools: ['echo', 'explode'], toolChoice: { mode: 'required' } },
    {
      choice: { mode: 'auto', allowedToolNames: ['explode'] },
      tools: ['explode'],
      toolChoice: { mode: 'auto', allowedToolNames: ['explode'] },
    },
  ] as const)(
    'enforces tool choice $choice.mode on the request',
    async ({ choice, tools, toolChoice }) => {
      const { session, model } = await start({
        script: [say('ok')],
        hooks: [loggingHook([], { onToolSelection: () => ToolSelectionAction.choose(choice) })],
      });
      await collect(session.run('q', { streaming }));
      expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(tools);
      expect(model.requests[0]?.settings?.toolChoice).toEqual(toolChoice);
    },
  );

  it('discards a denied prompt from the history and keeps a stopped one', async () => {
    for (const [action, kept] of [
      [PromptSubmitAction.deny('secret in prompt'), false],
      [PromptSubmitAction.stop('not now'), true],
    ] as const) {
      const { session, model } = await start({
        script: [],
        hooks: [loggingHook([], { onPromptSubmit: () => action })],
      });
      const { result } = await collect(session.run('my password is hunter2', { streaming }));
      expect(result.status).toBe('stopped');
      expect(model.callCount).toBe(0);
      expect(session.history.length).toBe(kept ? 1 : 0);
    }
  });

  it('ends the turn when BeforeModel or AfterModel denies', async () => {
    const denyBefore = await start({
      script: [say('x')],
      hooks: [
        loggingHook([], { onCompletionCall: () => CompletionCallAction.deny('no calls today') }),
      ],
    });
    const before = await collect(denyBefore.session.run('q', { streaming }));
    expect(before.result).toMatchObject({
      status: 'stopped',
      reason: 'BeforeModel denied the model call: no calls today',
    });
    expect(denyBefore.model.callCount).toBe(0);

    const denyAfter = await start({
      script: [say('leaked secret')],
      hooks: [
        loggingHook([], { onModelOutput: () => ModelOutputAction.deny('output leaks a secret') }),
      ],
    });
    const after = await collect(denyAfter.session.run('q', { streaming }));
    expect(after.result.status).toBe('stopped');
    expect(after.result.reason).toContain('output leaks a secret');
    expect(denyAfter.session.history.some((message) => message.speaker === 'ai')).toBe(false);
  });
});

describe('streaming only', () => {
  it('fires text deltas that add up to the answer, and AfterModel replacements change the streamed text', async () => {
    const deltas: string[] = [];
    const { session } = await start({
      script: [say('The quick brown fox jumps over the lazy dog')],
      hooks: [
        loggingHook([], {
          onTextDelta: (_context, event) => (deltas.push(event.delta), { kind: 'continue' }),
          onModelOutput: (_context, event) =>
            event.isTerminal
              ? ModelOutputAction.continue()
              : ModelOutputAction.replace({
                  content: {
                    speaker: 'ai',
                    blocks: [
                      {
                        type: 'text',
                        text: event.response.content.blocks
                          .map((block) => (block.type === 'text' ? block.text.toUpperCase() : ''))
                          .join(''),
                      },
                    ],
                  },
                }),
        }),
      ],
    });
    const { result, events } = await collect(session.run('q', { streaming: true }));
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe('THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG');
    expect(result.result).toBe('THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG');
    expect(
      events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join(''),
    ).toBe(result.result);
  });
});
