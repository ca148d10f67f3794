/** Shared fixtures for the hook-stack tests: events, a context that keeps its reports, models. */
import { message, text, type LanguageModel, type ModelResponse } from '../../src/content/index.ts';
import {
  createHookContext,
  HookStack,
  type AgentHook,
  type CompletionCallEvent,
  type HookReport,
  type InvalidToolCallEvent,
  type ModelOutputEvent,
  type ModelSelectionEvent,
  type ModelTurnFinishedEvent,
  type RunHookContext,
  type StopEvent,
  type ToolCallEvent,
  type ToolResultEvent,
  type ToolSelectionEvent,
} from '../../src/hooks/index.ts';

export function contextWithReports(): { context: RunHookContext; reports: HookReport[] } {
  const reports: HookReport[] = [];
  const context = createHookContext({
    agentName: 'test-agent',
    report: (report) => reports.push(report),
  });
  return { context, reports };
}

/** A model double that is never called: selection tests only compare identities. */
export function model(label: string): LanguageModel {
  return {
    provider: 'test',
    modelId: label,
    generate: () => Promise.reject(new Error('not called')),
    stream: () => {
      throw new Error('not called');
    },
  };
}

const prompt = message('human', [text('hi')]);

export function modelSelectionEvent(defaultModel: LanguageModel): ModelSelectionEvent {
  return {
    prompt,
    history: [],
    requestPatch: undefined,
    previousModel: undefined,
    defaultModel,
    selected: defaultModel,
  };
}

export const completionCallEvent: CompletionCallEvent = {
  prompt,
  history: [],
  modelCall: 1,
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the first release's name, still filled in
  turn: 1,
  request: { model: 'test-model', contents: [prompt] },
};

export const toolSelectionEvent: ToolSelectionEvent = {
  request: { model: 'test-model', contents: [prompt] },
  tools: [],
  toolChoice: undefined,
};

export function response(value: string): ModelResponse {
  return { content: message('ai', [text(value)]), finishReason: 'stop' };
}

export const modelOutputEvent: ModelOutputEvent = {
  request: { model: 'test-model', contents: [prompt] },
  response: response('original'),
  isChunk: false,
  isTerminal: true,
};

export const modelTurnFinishedEvent: ModelTurnFinishedEvent = {
  modelCall: 1,
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the first release's name, still filled in
  turn: 1,
  content: message('ai', [text('answer')]),
  usage: undefined,
  finishReason: 'stop',
  rawStopReason: 'end_turn',
  maxTokens: undefined,
  hasToolCalls: false,
  messageId: undefined,
  raw: undefined,
};

export const invalidToolCallEvent: InvalidToolCallEvent = {
  reason: 'unknown_tool',
  detail: 'no tool named unknown',
  toolName: 'unknown',
  toolCallId: 'tc1',
  args: {},
  availableTools: ['add'],
  allowedTools: ['add'],
  toolChoice: undefined,
};

export function toolCallEvent(toolCallId = 'tc1', args: unknown = {}): ToolCallEvent {
  return { toolName: 'add', toolCallId, args, originalArgs: args };
}

export const toolResultEvent: ToolResultEvent = {
  toolName: 'tool',
  toolCallId: 'tc1',
  args: {},
  presentation: 'raw failure',
  raw: { result: undefined, error: 'raw failure' },
  skipped: false,
};

export const stopEvent: StopEvent = {
  stopHookActive: false,
  prompt: 'p',
  promptResponse: 'r',
  continuations: 0,
  continuationBudget: 1,
};

/**
 * Ways to compose the same members: a nested stack must behave exactly like a flat one, so every
 * composition rule is asserted under each of these.
 */
export const arrangements: readonly (readonly [string, (hooks: AgentHook[]) => HookStack])[] = [
  ['flat', (hooks) => new HookStack(hooks)],
  [
    'each hook in its own nested stack',
    (hooks) => new HookStack(hooks.map((hook) => new HookStack([hook]))),
  ],
  [
    'split across two levels of nesting',
    (hooks) =>
      new HookStack([
        new HookStack(hooks.slice(0, 1)),
        new HookStack([new HookStack(hooks.slice(1))]),
      ]),
  ],
];

/** Resolves after every currently queued microtask and one macrotask turn. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
