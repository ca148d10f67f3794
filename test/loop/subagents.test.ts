/**
 * Subagents on the real loop: the `agent` tool runs a child loop through the parent's hooks, on
 * both surfaces. Requests are routed by the scripted model from what they contain (the child's
 * system prompt, its task), so concurrent children get their own answers.
 */
import { access, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/content/index.ts';
import { StopAction, ToolCallAction, type HookContext } from '../../src/events/index.ts';
import {
  createAgent,
  GENERAL_PURPOSE_AGENT,
  historyOf,
  readTranscript,
  ToolRegistry,
  type TranscriptRecord,
} from '../../src/loop/index.ts';
import type { AgentType } from '../../src/loop/agent-types.ts';
import { SUMMARIZER_INSTRUCTION } from '../../src/loop/compaction.ts';
import { testTempDir } from '../support/temp-dir.ts';
import type { Tool } from '../../src/loop/tool.ts';
import { createScriptedModel, type ScriptedModel, type ScriptedTurn } from '../../src/testing.ts';
import {
  callTools,
  collect,
  deferred,
  echoTool,
  loggingHook,
  say,
  start,
  SURFACES,
} from './support.ts';

const CHILD_PROMPT = 'You are the counting agent.';
const types = [
  { name: 'counter', description: 'Counts things', prompt: CHILD_PROMPT, tools: ['echo'] },
];

const isChild = (request: ModelRequest): boolean =>
  request.settings?.systemInstruction === CHILD_PROMPT ||
  (request.settings?.systemInstruction ?? '').startsWith('You are a subagent');

const firstText = (request: ModelRequest): string => {
  const block = request.contents[0]?.blocks[0];
  return block?.type === 'text' ? block.text : '';
};

const lastText = (request: ModelRequest): string => {
  const blocks = request.contents[request.contents.length - 1]?.blocks ?? [];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
};

const agentCall = (id: string, prompt: string, agentType?: string) => ({
  id,
  name: 'agent',
  args: {
    description: 'count',
    prompt,
    ...(agentType === undefined ? {} : { agent_type: agentType }),
  },
});

describe.each(SURFACES)('subagents ($name)', ({ streaming }) => {
  it("runs a child through the parent's guard: its denied shell call is the child's tool error", async () => {
    const log: string[] = [];
    const seen: { tool: string; agent: HookContext['agent'] }[] = [];
    const { session, model } = await start({
      agent: { subagents: { types } },
      tools: [echoTool],
      hooks: [
        loggingHook(log, {
          onToolCall: (context, event) => {
            seen.push({ tool: event.toolName, agent: context.agent });
            return event.toolName === 'echo' && context.agent !== undefined
              ? ToolCallAction.skip('echo is not allowed in subagents')
              : ToolCallAction.run();
          },
        }),
      ],
      script: (request) => {
        if (!isChild(request))
          return request.contents.length === 1
            ? callTools([agentCall('a1', 'count the files', 'counter')])
            : say(`parent got: ${lastText(request)}`);
        if (request.contents.length === 1)
          return callTools([{ id: 'e1', name: 'echo', args: { text: 'hi' } }]);
        return say(`child saw: ${lastText(request)}`);
      },
    });
    const { result, events } = await collect(session.run('delegate', { streaming }));
    expect(result.status).toBe('completed');
    expect(result.modelCalls).toBe(4); // the child's two calls count toward the run's budget
    expect(seen).toEqual([
      { tool: 'agent', agent: undefined },
      { tool: 'echo', agent: { id: expect.stringMatching(/^agent-/) as unknown, type: 'counter' } },
    ]);
    // The child's request had its own history, its type's prompt and tools (no agent tool).
    const childRequest = model.requests.find((request) => isChild(request));
    expect(firstText(childRequest as ModelRequest)).toBe('count the files');
    expect(childRequest?.tools?.map((tool) => tool.name)).toEqual(['echo']);
    const childFinal = model.requests[2] as ModelRequest;
    expect(childFinal.contents[2]?.blocks[0]).toMatchObject({
      type: 'tool_response',
      callId: 'e1',
      error: 'echo is not allowed in subagents',
    });
    expect(result.result).toBe('parent got: [tool_response]');
    const parentTool = session.history[2]?.blocks[0];
    expect(parentTool).toMatchObject({
      type: 'tool_response',
      callId: 'a1',
      result: expect.stringContaining('child saw:') as unknown,
    });
    expect(log).toEqual([
      'SessionStart:startup',
      'UserPromptSubmit',
      'BeforeModel',
      'BeforeToolSelection',
      'ModelTurnFinished',
      'PreToolUse:agent',
      'SubagentStart:counter',
      'BeforeModel',
      'BeforeToolSelection',
      'ModelTurnFinished',
      'PreToolUse:echo',
      'PostToolUse:echo',
      'BeforeModel',
      'BeforeToolSelection',
      'ModelTurnFinished',
      'SubagentStop(active=false)',
      'PostToolUse:agent',
      'BeforeModel',
      'BeforeToolSelection',
      'ModelTurnFinished',
      'Stop(active=false)',
    ]);
    // The child's transcript is its own, linked from the parent's.
    const start_ = events.find((event) => event.type === 'subagent-start');
    expect(start_).toMatchObject({ toolCallId: 'a1', agentType: 'counter' });
    await session.close('exit');
    const parent = await readTranscript(session.transcriptPath);
    const link = parent.records.find(
      (record): record is Extract<TranscriptRecord, { type: 'subagent-start' }> =>
        record.type === 'subagent-start',
    );
    expect(link?.transcriptPath).toMatch(/\.agents\/agent-.*\.jsonl$/);
    await access(link?.transcriptPath ?? '');
    const child = await readTranscript(link?.transcriptPath ?? '');
    expect(historyOf(child.records).map((message) => message.speaker)).toEqual([
      'human',
      'ai',
      'tool',
      'ai',
    ]);
    expect(parent.records.some((record) => record.type === 'subagent-end')).toBe(true);
  });

  it('keeps a subagent working when SubagentStop blocks, within the per-turn budget', async () => {
    const stops: boolean[] = [];
    const { session, model } = await start({
      agent: { subagents: {}, stopContinuationsPerTurn: 1 },
      tools: [echoTool],
      hooks: [
        {
          name: 'reviewer',
          onSubagentStop: (_context, event) => {
            stops.push(event.stopHookActive);
            expect(event.agentType).toBe(GENERAL_PURPOSE_AGENT);
            return event.stopHookActive
              ? StopAction.block('still not good')
              : StopAction.block('check again');
          },
        },
      ],
      script: (request) => {
        if (!isChild(request))
          return request.contents.length === 1
            ? callTools([agentCall('a1', 'write a haiku')])
            : say('parent done');
        return say(`draft ${request.contents.length}`);
      },
    });
    const { result, events } = await collect(session.run('delegate', { streaming }));
    expect(result.status).toBe('completed');
    expect(stops).toEqual([false, true]);
    const childRequests = model.requests.filter((request) => isChild(request));
    expect(childRequests).toHaveLength(2);
    expect(lastText(childRequests[1] as ModelRequest)).toBe('check again');
    // The second block is over budget: reported, and the answer stands.
    expect(session.history[2]?.blocks[0]).toMatchObject({ result: 'draft 3' });
    expect(
      events.some(
        (event) =>
          event.type === 'hook-report' &&
          event.report.text.includes('SubagentStop hook blocked again'),
      ),
    ).toBe(true);
  });

  it('runs two agent calls of one step concurrently, each with its own history', async () => {
    const bothStarted = deferred();
    const started: string[] = [];
    const { session } = await start({
      agent: { subagents: {} },
      tools: [echoTool],
      script: async (request): Promise<ScriptedTurn> => {
        if (!isChild(request))
          return request.contents.length === 1
            ? callTools([agentCall('a1', 'task one'), agentCall('a2', 'task two')])
            : say('parent done');
        const task = firstText(request);
        started.push(task);
        if (started.length === 2) bothStarted.resolve();
        // Neither child answers before both have called the model: sequential children would
        // never get here.
        await bothStarted.promise;
        return say(`answer to ${task}`);
      },
    });
    const { result } = await collect(session.run('delegate', { streaming }));
    expect(result.status).toBe('completed');
    expect([...started].sort()).toEqual(['task one', 'task two']);
    expect(session.history[2]?.blocks).toMatchObject([
      { callId: 'a1', result: 'answer to task one' },
      { callId: 'a2', result: 'answer to task two' },
    ]);
  });

  it("cancels a subagent with its parent: the child's tool sees the signal, the call is answered", async () => {
    const log: string[] = [];
    const toolStarted = deferred();
    let aborted = false;
    const waitTool: Tool = {
      declaration: { name: 'wait', parameters: { type: 'object', properties: {} } },
      execute: (_args, context) =>
        new Promise((_resolve, reject) => {
          context.signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
          toolStarted.resolve();
        }),
    };
    const { session } = await start({
      agent: { subagents: {} },
      tools: [echoTool, waitTool],
      hooks: [loggingHook(log)],
      script: (request) => {
        if (!isChild(request)) return callTools([agentCall('a1', 'wait forever')]);
        return callTools([{ id: 'w1', name: 'wait', args: {} }]);
      },
    });
    const handle = session.run('delegate', { streaming });
    const collected = collect(handle);
    await toolStarted.promise;
    handle.cancel('user pressed Ctrl-C');
    const { result } = await collected;
    expect(result.status).toBe('cancelled');
    expect(aborted).toBe(true);
    expect(log.filter((entry) => entry === 'Interrupt')).toHaveLength(1);
    expect(log.some((entry) => entry.startsWith('SubagentStop'))).toBe(false);
    expect(log).toContain('SubagentStart:general-purpose');
    expect(session.history[2]?.blocks[0]).toMatchObject({
      callId: 'a1',
      error: expect.stringContaining('cancelled') as unknown,
    });
  });

  it('gives subagents no agent tool at the default depth, and one below the limit', async () => {
    const seenTools: string[][] = [];
    const run = async (maxDepth: number | undefined) => {
      const { session, model } = await start({
        agent: { subagents: maxDepth === undefined ? {} : { maxDepth } },
        tools: [echoTool],
        script: (request) => {
          if (!isChild(request))
            return request.contents.length === 1 ? callTools([agentCall('a1', 'x')]) : say('ok');
          return say('child');
        },
      });
      await collect(session.run('delegate', { streaming }));
      seenTools.push(
        model.requests.find((request) => isChild(request))?.tools?.map((tool) => tool.name) ?? [],
      );
    };
    await run(undefined);
    await run(2);
    expect(seenTools).toEqual([['echo'], ['echo', 'agent']]);
  });

  it('answers an unknown agent type with an error naming the types', async () => {
    const { session } = await start({
      agent: { subagents: { types } },
      tools: [echoTool],
      script: (request) =>
        request.contents.length === 1
          ? callTools([
              {
                id: 'a1',
                name: 'agent',
                args: { description: 'd', prompt: 'p', agent_type: 'nope' },
              },
            ])
          : say('ok'),
    });
    const { result } = await collect(session.run('delegate', { streaming }));
    expect(result.status).toBe('completed');
    // The schema's enum catches it first: an invalid call, answered with the error.
    expect(JSON.stringify(session.history[2]?.blocks[0])).toContain('general-purpose');
  });
});

describe('subagent transcripts', () => {
  it('lie beside the parent transcript', async () => {
    const { session } = await start({
      agent: { subagents: {} },
      tools: [echoTool],
      script: (request) =>
        isChild(request)
          ? say('child')
          : request.contents.length === 1
            ? callTools([agentCall('a1', 'x')])
            : say('ok'),
    });
    await collect(session.run('go'));
    await session.close('exit');
    const text = await readFile(session.transcriptPath, 'utf8');
    const expected = session.transcriptPath.replace(/\.jsonl$/, '.agents/');
    expect(text).toContain(JSON.stringify(expected).slice(1, -1));
  });
});

describe('a subagent on a model of its own', () => {
  const SUMMARY = 'The counter echoed long texts.';
  const isSummary = (request: ModelRequest): boolean =>
    request.settings?.systemInstruction === SUMMARIZER_INSTRUCTION;
  /** The child's model: six 600-character echoes, then an answer; summaries on request. */
  const childModel = (contextWindow: number | undefined): ScriptedModel => {
    let step = 0;
    const model = createScriptedModel(
      (request) => {
        if (isSummary(request)) return say(SUMMARY);
        step++;
        return step <= 6
          ? callTools([
              { id: `e${step}`, name: 'echo', args: { text: `${step}:${'x'.repeat(600)}` } },
            ])
          : say('counted');
      },
      { keepRequests: true },
    );
    return contextWindow === undefined ? model : Object.assign(model, { contextWindow });
  };
  const parentModel = (): ScriptedModel =>
    Object.assign(
      createScriptedModel((request) =>
        request.contents.length === 1
          ? callTools([agentCall('a1', 'count the files', 'counter')])
          : say(`parent got: ${lastText(request)}`),
      ),
      { contextWindow: 1_000_000 },
    );
  const run = async (child: ScriptedModel, maxContextTokens?: number) => {
    const agent = createAgent({
      model: parentModel(),
      tools: new ToolRegistry([echoTool]),
      cwd: await testTempDir('subagent-budget'),
      subagents: { types: [{ ...types[0], model: child } as AgentType] },
      ...(maxContextTokens === undefined ? {} : { maxContextTokens }),
    });
    const session = await agent.openSession();
    const { result } = await collect(session.run('delegate'));
    await session.close('exit');
    expect(result.status).toBe('completed');
    return child.requests.filter(isSummary).length;
  };

  it("compacts within its model's window, not its parent's", async () => {
    // The parent's model holds a million tokens; the child's 700: the child must compact.
    expect(await run(childModel(700))).toBeGreaterThanOrEqual(1);
    // A child model whose window is unknown gets no budget of its parent's model's.
    expect(await run(childModel(undefined))).toBe(0);
  });

  it('follows an explicit maxContextTokens of the agent', async () => {
    expect(await run(childModel(1_000_000), 700)).toBeGreaterThanOrEqual(1);
    expect(await run(childModel(1_000_000))).toBe(0);
  });
});
