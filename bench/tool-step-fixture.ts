/**
 * The loop's tool-step workload, shared by the loop and telemetry benchmarks so both measure the
 * same run: a 20-step session run whose every step is a ~3.5 KB answer plus one `echo` tool call
 * (the last step only answers), sessions opened beforehand (opening one is a per-session cost,
 * not a per-step one), and a short tool step guarded by one no-op command hook.
 */
import { openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { load } from './built.ts';
import type { Message, ToolCallBlock, ToolResponseBlock } from '../src/content/index.ts';
import type * as LoopModule from '../src/loop/index.ts';
import type * as TestingModule from '../src/testing.ts';
import type * as HooksModule from '../src/hooks/index.ts';
import type * as CommandModule from '../src/hook-kinds/group/index.ts';
import type { CommandRunner } from '../src/supervision/index.ts';

const { createAgent, ToolRegistry } = await load<typeof LoopModule>('loop/index');
const { createScriptedModel } = await load<typeof TestingModule>('testing');
const { HookStack } = await load<typeof HooksModule>('hooks/index');
const { createCommandHooks, createCommandRunner, mergeSettingsFiles, parseSettingsText } =
  await load<typeof CommandModule>('hook-kinds/group/index');
type AgentOptions = LoopModule.AgentOptions;
type ScriptedTurn = TestingModule.ScriptedTurn;
type HookStack = HooksModule.HookStack;

/** Model calls per run. */
export const STEPS = 20;

/**
 * Unmeasured runs before a steady-state figure of this run: V8 compiles the step's functions over
 * a process's first ~1,500 steps (in windows of 25 runs: 1.15× at first, 1.08–1.11× from the
 * 75th run on).
 */
export const STEADY_WARMUP_RUNS = 80;

const prose =
  'The loop calls the model, runs the tools it asked for, and fires every hook on the way. '.repeat(
    40,
  ); // ~3.5 KB

/** The script of one run: each answer after `delayMs` (none when 0). */
export function toolStepTurns(delayMs: number): ScriptedTurn[] {
  const withDelay = delayMs > 0 ? { delayMs } : {};
  const list: ScriptedTurn[] = [];
  for (let index = 0; index < STEPS - 1; index++) {
    list.push({
      blocks: [
        { type: 'text', text: prose },
        { type: 'tool_call', id: `call-${index}`, name: 'echo', parameters: { text: 'ping' } },
      ],
      finishReason: 'tool_calls',
      usage: { promptTokens: 1200, completionTokens: 900 },
      ...withDelay,
    });
  }
  list.push({ blocks: [{ type: 'text', text: prose }], finishReason: 'stop', ...withDelay });
  return list;
}

/** The one tool the model calls: returns its arguments. */
export const echoTools = new ToolRegistry([
  {
    declaration: {
      name: 'echo',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    execute: async (args) => args,
  },
]);

/** Agent options besides the model, tools, cwd and step limit (a tracer, hooks). */
export type ExtraAgentOptions = Omit<AgentOptions, 'model' | 'tools' | 'cwd' | 'maxModelCalls'>;

/** `count` sessions opened beforehand; `run()` runs the script once on the next one. */
export interface PreparedRuns {
  readonly run: () => Promise<void>;
  readonly close: () => Promise<void>;
}

export async function preparedRuns(
  cwd: string,
  script: readonly ScriptedTurn[],
  count: number,
  extra: ExtraAgentOptions = {},
): Promise<PreparedRuns> {
  const sessions = await Promise.all(
    Array.from({ length: count }, async () => {
      let model = createScriptedModel(script);
      const agent = createAgent({
        ...extra,
        model: {
          provider: 'scripted',
          modelId: 'scripted',
          generate: (request, options) => model.generate(request, options),
          stream: (request, options) => model.stream(request, options),
        },
        tools: echoTools,
        cwd,
        maxModelCalls: STEPS,
      });
      return {
        session: await agent.openSession(),
        reset: () => (model = createScriptedModel(script)),
      };
    }),
  );
  let next = 0;
  return {
    run: async (): Promise<void> => {
      const entry = sessions[next++];
      if (entry === undefined) throw new Error('bench ran out of pre-opened sessions');
      entry.reset();
      const result = await entry.session.run('go').result;
      if (result.status !== 'completed')
        throw new Error(`bench run ended ${result.status}: ${result.reason ?? ''}`);
    },
    close: async (): Promise<void> => {
      await Promise.all(sessions.map((entry) => entry.session.close('exit')));
    },
  };
}

let handRuns = 0;

/**
 * The loop's essential work on `script`, written by hand as cheaply as it can be: the history
 * (each request a copy of it, with the tools and a signal), the answer's calls validated, the
 * calls (without the answer's text) written to a transcript file before the tool runs, the tool
 * awaited, the tool message appended, and the answer and tool message written at the end of the
 * event-loop turn. No events, hooks, budgets, records of calls or cancellation plumbing: what the
 * loop adds to this is its own machinery.
 */
export function handWrittenRun(cwd: string, script: readonly ScriptedTurn[]): () => Promise<void> {
  const tools = echoTools.declarations();
  return async () => {
    const fd = openSync(join(cwd, `by-hand-${++handRuns}.jsonl`), 'a');
    const model = createScriptedModel(script);
    const controller = new AbortController();
    const history: Message[] = [{ speaker: 'human', blocks: [{ type: 'text', text: 'go' }] }];
    let later: Message[] = [];
    const writeLater = (): void => {
      if (later.length === 0) return;
      const lines = later.map((message) => `${JSON.stringify({ type: 'message', message })}\n`);
      later = [];
      writeSync(fd, lines.join(''));
    };
    for (let step = 0; step < STEPS; step++) {
      const answer = await model.generate(
        { model: 'scripted', contents: history.slice(), tools },
        { signal: controller.signal },
      );
      history.push(answer.content);
      const calls = answer.content.blocks.filter(
        (block): block is ToolCallBlock => block.type === 'tool_call',
      );
      if (calls.length === 0) {
        later.push(answer.content);
        break;
      }
      for (const call of calls)
        if (!echoTools.validate(call.name, call.parameters).ok) throw new Error('invalid call');
      writeSync(
        fd,
        `${JSON.stringify({ type: 'pending-message', message: { speaker: 'ai', blocks: calls } })}\n`,
      );
      const results: ToolResponseBlock[] = [];
      for (const call of calls) {
        const tool = echoTools.get(call.name);
        if (tool === undefined) throw new Error('unknown tool');
        const result = await tool.execute(call.parameters, {
          signal: controller.signal,
          cwd,
          toolCallId: call.id,
        });
        results.push({ type: 'tool_response', callId: call.id, toolName: call.name, result });
      }
      const toolMessage: Message = { speaker: 'tool', blocks: results };
      history.push(toolMessage);
      if (later.length === 0) setImmediate(writeLater);
      later.push(answer.content, toolMessage);
    }
    if (later.length > 0) writeLater();
    closeSync(fd);
  };
}

/** A short tool step: one `echo` call, then the answer, each after 1 ms. */
export const SHORT_TOOL_STEP: readonly ScriptedTurn[] = [
  {
    blocks: [{ type: 'tool_call', id: 'call-1', name: 'echo', parameters: { text: 'ping' } }],
    finishReason: 'tool_calls',
    delayMs: 1,
  },
  { blocks: [{ type: 'text', text: 'done' }], finishReason: 'stop', delayMs: 1 },
];

/** One no-op command hook (`true`, a real process per call) on PreToolUse, and its runner. */
export function noOpCommandHook(cwd: string): { hooks: HookStack; runner: CommandRunner } {
  const runner = createCommandRunner();
  const settings = mergeSettingsFiles([
    parseSettingsText(
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true', name: 'no-op' }] }] },
      }),
      { file: 'bench-settings.json', layer: 'extra' },
    ),
  ]);
  return {
    hooks: new HookStack(createCommandHooks(settings, { runner, projectDir: cwd })),
    runner,
  };
}

/** One session per call running `SHORT_TOOL_STEP` (opening and closing it included). */
export function shortToolStep(cwd: string, extra: ExtraAgentOptions = {}): () => Promise<void> {
  return async () => {
    const agent = createAgent({
      ...extra,
      model: createScriptedModel(SHORT_TOOL_STEP),
      tools: echoTools,
      cwd,
    });
    const session = await agent.openSession();
    const result = await session.run('go').result;
    if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}`);
    await session.close('exit');
  };
}
