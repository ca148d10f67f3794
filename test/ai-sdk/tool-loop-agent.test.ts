/**
 * The AI SDK's agent class and tool approvals in `hookwire/ai-sdk`, through the real `ai`
 * package and its mock model: `hw.toolLoopAgent(settings)` runs a `ToolLoopAgent` with the
 * turn's hooks around each `generate` / `stream` (UserPromptSubmit context, PreToolUse on its
 * tools, a Stop block continuing the turn) and the agent's own settings (instructions, step
 * budget); a tool with `needsApproval` is put to PermissionRequest hooks first — allow runs it,
 * deny gives the model the AI SDK's own denial, no hook leaves the AI SDK's approval request.
 */
import { isStepCount, jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  PermissionRequestAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  type AgentHook,
  type PermissionRequestEvent,
} from '../../src/index.ts';
import { createHookwire } from '../../src/ai-sdk.ts';
import {
  textAnswer,
  toolCallAnswer,
  toolOutputsOf,
  useHookwireFixture,
  userTextsOf,
} from './support.ts';

const fixture = useHookwireFixture(createHookwire);
const { open } = fixture;

/** A tool that records the inputs it ran with; `needsApproval` as given. */
function recordingTool(ran: unknown[], needsApproval?: boolean) {
  return tool({
    description: 'deletes a path',
    inputSchema: jsonSchema<{ path: string }>({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    }),
    // The subject: tools written with `needsApproval` (deprecated in favour of the call's
    // `toolApproval`, which the last test covers, but still honoured by the AI SDK).
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    ...(needsApproval === undefined ? {} : { needsApproval }),
    execute: async (input: { path: string }) => {
      ran.push(input);
      return { deleted: input.path };
    },
  });
}

/** The system text a model call received. */
function systemOf(call: MockLanguageModelV4['doGenerateCalls'][number]): string {
  return call.prompt
    .flatMap((message) => (message.role === 'system' ? [message.content] : []))
    .join('\n');
}

describe('hw.toolLoopAgent', () => {
  it('runs the agent with its instructions and tools, the turn hooks around it, and a Stop block continuing the turn', async () => {
    const log: string[] = [];
    let stops = 0;
    const hooks: AgentHook = {
      name: 'observer',
      onPromptSubmit: (_context, event) => {
        log.push(`prompt:${event.prompt}`);
        return PromptSubmitAction.continue('the project is a demo');
      },
      onToolCall: (_context, event) => {
        log.push(`tool:${event.toolName}`);
        return ToolCallAction.run();
      },
      onStop: (_context, event) => {
        log.push(`stop:${event.promptResponse}`);
        stops++;
        return stops === 1 ? StopAction.block('run the tests too') : StopAction.continue();
      },
    };
    const instance = await open({ hooks: [hooks] });
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCallAnswer('c1', 'remove', { path: 'tmp' }),
        textAnswer('removed'),
        textAnswer('tests pass'),
      ],
    });
    const agent = instance.toolLoopAgent({
      model,
      instructions: 'You are a careful agent.',
      tools: { remove: recordingTool(ran) },
    });
    expect(agent.version).toBe('agent-v1');
    const result = await agent.generate({ prompt: 'clean up' });

    expect(result.text).toBe('tests pass');
    expect(ran).toEqual([{ path: 'tmp' }]);
    expect(log).toEqual(['prompt:clean up', 'tool:remove', 'stop:removed', 'stop:tests pass']);
    expect(model.doGenerateCalls).toHaveLength(3);
    // The agent's instructions reach every call; the hook's context and the Stop reason arrive
    // as user text.
    for (const call of model.doGenerateCalls)
      expect(systemOf(call)).toBe('You are a careful agent.');
    expect(userTextsOf(model.doGenerateCalls[0]!).join('\n')).toContain('the project is a demo');
    expect(userTextsOf(model.doGenerateCalls[2]!)).toContain('run the tests too');
    expect(result.steps).toHaveLength(3);
  });

  it('a PreToolUse skip reaches the agent’s tool: execute never runs, the model sees the reason', async () => {
    const guard: AgentHook = {
      name: 'guard',
      onToolCall: () => ToolCallAction.skip('not in this repository'),
    };
    const instance = await open({ hooks: [guard] });
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('c1', 'remove', { path: '/' }), textAnswer('ok')],
    });
    const agent = instance.toolLoopAgent({ model, tools: { remove: recordingTool(ran) } });
    const result = await agent.generate({ prompt: 'go' });
    expect(result.text).toBe('ok');
    expect(ran).toEqual([]);
    expect(toolOutputsOf(model.doGenerateCalls[1]!)).toEqual([
      { type: 'error-text', value: 'not in this repository' },
    ]);
  });

  it('streams through the same turn: the text of the agent’s answer, the hooks around it', async () => {
    const log: string[] = [];
    const instance = await open({
      hooks: [
        {
          name: 'observer',
          onStop: (_context, event) => {
            log.push(`stop:${event.promptResponse}`);
            return StopAction.continue();
          },
        },
      ],
    });
    const model = new MockLanguageModelV4({
      doStream: {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'streamed ' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'answer' });
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: {
                inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
                outputTokens: { total: 1, text: 1, reasoning: undefined },
              },
            });
            controller.close();
          },
        }),
      },
    });
    const agent = instance.toolLoopAgent({ model, instructions: 'Be brief.' });
    const streamed = agent.stream({ prompt: 'hello' });
    const chunks: string[] = [];
    for await (const chunk of streamed.textStream) chunks.push(chunk);
    expect(chunks.join('')).toBe('streamed answer');
    expect(await streamed.text).toBe('streamed answer');
    expect(log).toEqual(['stop:streamed answer']);
    expect(systemOf(model.doStreamCalls[0]!)).toBe('Be brief.');
  });
});

describe('needsApproval answered by PermissionRequest hooks', () => {
  const decider = (decide: (event: PermissionRequestEvent) => PermissionRequestAction) => {
    const heard: PermissionRequestEvent[] = [];
    const hook: AgentHook = {
      name: 'approver',
      onPermissionRequest: (_context, event) => {
        heard.push(event);
        return decide(event);
      },
    };
    return { hook, heard };
  };

  it('allow: the tool runs without the AI SDK asking', async () => {
    const { hook, heard } = decider(() => PermissionRequestAction.allow());
    const instance = await open({ hooks: [hook] });
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('c1', 'remove', { path: 'tmp' }), textAnswer('done')],
    });
    const agent = instance.toolLoopAgent({ model, tools: { remove: recordingTool(ran, true) } });
    const result = await agent.generate({ prompt: 'go' });
    expect(result.text).toBe('done');
    expect(ran).toEqual([{ path: 'tmp' }]);
    expect(heard).toEqual([
      expect.objectContaining({
        toolName: 'remove',
        toolCallId: 'c1',
        args: { path: 'tmp' },
        reason: expect.stringContaining('needsApproval') as string,
      }),
    ]);
    expect(toolOutputsOf(model.doGenerateCalls[1]!)).toEqual([
      { type: 'json', value: { deleted: 'tmp' } },
    ]);
  });

  it("deny: the tool never runs and the model sees the AI SDK's denial with the hook's reason", async () => {
    const { hook } = decider(() => PermissionRequestAction.deny('remove is not allowed here'));
    const instance = await open({ hooks: [hook] });
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('c1', 'remove', { path: 'tmp' }), textAnswer('understood')],
    });
    const result = await instance.generateText({
      model,
      tools: { remove: recordingTool(ran, true) },
      prompt: 'go',
      stopWhen: isStepCount(3),
    });
    expect(result.text).toBe('understood');
    expect(ran).toEqual([]);
    expect(toolOutputsOf(model.doGenerateCalls[1]!)).toEqual([
      { type: 'execution-denied', reason: 'remove is not allowed here' },
    ]);
  });

  it("no hook decides: the AI SDK's own approval request reaches the app, and the tool has not run", async () => {
    const { hook, heard } = decider(() => PermissionRequestAction.continue());
    const instance = await open({ hooks: [hook] });
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('c1', 'remove', { path: 'tmp' }), textAnswer('never')],
    });
    const agent = instance.toolLoopAgent({ model, tools: { remove: recordingTool(ran, true) } });
    const result = await agent.generate({ prompt: 'go' });
    expect(heard).toHaveLength(1);
    expect(ran).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(result.content).toContainEqual(
      expect.objectContaining({
        type: 'tool-approval-request',
        toolCall: expect.objectContaining({ toolName: 'remove', toolCallId: 'c1' }) as unknown,
      }),
    );
  });

  it('a tool without needsApproval runs without a PermissionRequest', async () => {
    const { hook, heard } = decider(() => PermissionRequestAction.deny('never asked'));
    const instance = await open({ hooks: [hook] });
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('c1', 'remove', { path: 'tmp' }), textAnswer('done')],
    });
    const agent = instance.toolLoopAgent({ model, tools: { remove: recordingTool(ran) } });
    await agent.generate({ prompt: 'go' });
    expect(ran).toEqual([{ path: 'tmp' }]);
    expect(heard).toEqual([]);
  });

  it("the call's own toolApproval asking the user goes to the hooks the same way", async () => {
    const { hook, heard } = decider(() => PermissionRequestAction.allow());
    const instance = await open({ hooks: [hook] });
    const ran: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallAnswer('c1', 'remove', { path: 'tmp' }), textAnswer('done')],
    });
    const result = await instance.generateText({
      model,
      tools: { remove: recordingTool(ran) },
      toolApproval: { remove: 'user-approval' },
      prompt: 'go',
      stopWhen: isStepCount(3),
    });
    expect(result.text).toBe('done');
    expect(heard).toHaveLength(1);
    expect(ran).toEqual([{ path: 'tmp' }]);
  });
});
