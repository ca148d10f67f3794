/**
 * Test support for the loop suites: the real loop, the scripted model, a real `HookStack`, and
 * in-process hooks that write every event they see to an execution log.
 */
import type { ContentBlock, FinishReason } from '../../src/content/index.ts';
import type { AgentHook } from '../../src/hooks/agent-hook.ts';
import { HOOK_METHOD, type HookEventKind } from '../../src/events/index.ts';
import { HookStack } from '../../src/hooks/stack/hook-stack.ts';
import { testTempDir } from '../support/temp-dir.ts';
import {
  createAgent,
  type AgentOptions,
  type RunEvent,
  type RunHandle,
  type RunResult,
} from '../../src/loop/index.ts';
import { ToolRegistry } from '../../src/loop/tool-registry.ts';
import type { Tool } from '../../src/loop/tool.ts';
import {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedTurn,
  type ScriptFunction,
} from '../../src/testing.ts';

/** Both surfaces: every scenario runs on each. */
export const SURFACES = [
  { name: 'blocking', streaming: false },
  { name: 'streaming', streaming: true },
] as const;

export const say = (text: string, finishReason: FinishReason = 'stop'): ScriptedTurn => ({
  blocks: [{ type: 'text', text }],
  finishReason,
});

export const callTools = (
  calls: readonly { id: string; name: string; args: unknown }[],
  finishReason: FinishReason = 'tool_calls',
  text = 'Working on it.',
): ScriptedTurn => ({
  blocks: [
    { type: 'text', text },
    ...calls.map((call): ContentBlock => ({
      type: 'tool_call',
      id: call.id,
      name: call.name,
      parameters: call.args,
    })),
  ],
  finishReason,
});

export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** The external name each logged kind is written under. */
const LABEL: Partial<Record<HookEventKind, string>> = {
  sessionStart: 'SessionStart',
  promptSubmit: 'UserPromptSubmit',
  completionCall: 'BeforeModel',
  toolSelection: 'BeforeToolSelection',
  modelTurnFinished: 'ModelTurnFinished',
  invalidToolCall: 'InvalidToolCall',
  toolCall: 'PreToolUse',
  toolResult: 'PostToolUse',
  toolFailure: 'PostToolUseFailure',
  subagentStart: 'SubagentStart',
  subagentStop: 'SubagentStop',
  stop: 'Stop',
  stopFailure: 'StopFailure',
  interrupt: 'Interrupt',
  preCompact: 'PreCompact',
  postCompact: 'PostCompact',
  notification: 'Notification',
  sessionEnd: 'SessionEnd',
};

const DEFAULT_ACTION: Partial<Record<HookEventKind, unknown>> = {
  toolCall: { kind: 'run' },
  toolResult: { kind: 'keep' },
  invalidToolCall: undefined,
};

function describeEvent(kind: HookEventKind, event: Record<string, unknown>): string {
  const label = LABEL[kind] ?? kind;
  switch (kind) {
    case 'toolCall':
    case 'toolResult':
    case 'toolFailure':
      return `${label}:${String(event.toolName)}`;
    case 'stop':
    case 'subagentStop':
      return `${label}(active=${String(event.stopHookActive)})`;
    case 'subagentStart':
      return `${label}:${String(event.agentType)}`;
    case 'preCompact':
    case 'postCompact':
      return `${label}:${String(event.trigger)}`;
    case 'sessionStart':
      return `${label}:${String(event.source)}`;
    case 'notification':
      return `${label}:${String(event.notificationType)}`;
    default:
      return label;
  }
}

/**
 * A hook that logs the lifecycle events (those in `LABEL`) to `log` and answers with the
 * override for the event when there is one, else with "go on".
 */
export function loggingHook(log: string[], overrides: Partial<AgentHook> = {}): AgentHook {
  const hook: Record<string, unknown> = { name: 'logger' };
  for (const kind of Object.keys(LABEL) as HookEventKind[]) {
    const method = HOOK_METHOD[kind];
    const override = overrides[method] as ((...args: unknown[]) => unknown) | undefined;
    hook[method] = (context: unknown, event: Record<string, unknown>) => {
      log.push(describeEvent(kind, event));
      if (override !== undefined) return override(context, event);
      return kind in DEFAULT_ACTION ? DEFAULT_ACTION[kind] : { kind: 'continue' };
    };
  }
  for (const [method, value] of Object.entries(overrides))
    if (!(method in hook)) hook[method] = value;
  return hook;
}

export const echoTool: Tool = {
  declaration: {
    name: 'echo',
    description: 'Returns its arguments.',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
  },
  execute: async (args) => args,
};

export const failingTool: Tool = {
  declaration: { name: 'explode', parameters: { type: 'object', properties: {} } },
  execute: async () => {
    throw new Error('the disk is on fire');
  },
};

export interface Harness {
  readonly model: ScriptedModel;
  readonly session: Awaited<ReturnType<ReturnType<typeof createAgent>['openSession']>>;
  readonly agent: ReturnType<typeof createAgent>;
  readonly cwd: string;
}

export async function start(options: {
  script: readonly ScriptedTurn[] | ScriptFunction;
  hooks?: readonly AgentHook[];
  tools?: readonly Tool[];
  agent?: Partial<Omit<AgentOptions, 'model' | 'cwd' | 'tools' | 'hooks'>>;
  cwd?: string;
}): Promise<Harness> {
  const cwd = options.cwd ?? (await testTempDir('loop'));
  const model = createScriptedModel(options.script, { keepRequests: true });
  const agent = createAgent({
    model,
    tools: new ToolRegistry(options.tools ?? [echoTool, failingTool]),
    hooks: new HookStack(options.hooks ?? []),
    cwd,
    ...options.agent,
  });
  const session = await agent.openSession();
  return { model, session, agent, cwd };
}

export async function collect(
  handle: RunHandle,
): Promise<{ events: RunEvent[]; result: RunResult }> {
  const events: RunEvent[] = [];
  for await (const event of handle) events.push(event);
  return { events, result: await handle.result };
}

/** The text of the last message of the request the model received on call `index` (0-based). */
export function lastRequestText(model: ScriptedModel, index: number): string {
  const request = model.requests[index];
  const last = request?.contents[request.contents.length - 1];
  return last === undefined
    ? ''
    : last.blocks
        .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
        .join(' ');
}
