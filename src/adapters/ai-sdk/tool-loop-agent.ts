/**
 * `hw.toolLoopAgent(settings)`: the AI SDK's `ToolLoopAgent` with hookwire around it, as
 * `hw.generateText` / `hw.streamText` are around the AI SDK's functions.
 *
 * ```ts
 * const agent = hw.toolLoopAgent({ model, instructions: 'You are …', tools });
 * const result = await agent.generate({ prompt: 'fix the tests' });
 * ```
 *
 * Each `generate` / `stream` is one turn: UserPromptSubmit, the agent's own steps (its
 * `instructions`, `prepareCall`, `prepareStep`, callbacks and call `options` as the AI SDK
 * applies them) with the model and tools wrapped, then Stop (a block runs the agent again with
 * the reason as the next user message, bounded by `stopContinuationsPerTurn`), StopFailure or
 * Interrupt. Tools with `needsApproval` are put to PermissionRequest hooks first (see
 * tool-approval.ts). Each round builds a `ToolLoopAgent` from the settings with the wrapped model
 * and tools (building one only stores its settings), so the agent's behaviour is the AI SDK's own.
 */
import {
  ToolLoopAgent,
  isStepCount,
  type GenerateTextResult,
  type ModelMessage,
  type OutputInterface,
  type StreamTextResult,
  type ToolLoopAgentSettings,
  type ToolSet,
} from 'ai';
import type {
  GenerateTextOptions,
  HookwireStreamTextResult,
  StreamTextOptions,
} from './create-hookwire.ts';

type Context = Record<string, unknown>;

/** The AI SDK agent's default step budget (`ToolLoopAgent` stops after 20 steps). */
const AGENT_DEFAULT_STEPS = 20;

/**
 * A `ToolLoopAgent` with hookwire's hooks around each call (see the module comment). `generate`
 * takes and returns what `ToolLoopAgent.generate` does; `stream` takes what
 * `ToolLoopAgent.stream` takes and returns what `hw.streamText` does (the stream of every round,
 * `rounds[0]` the AI SDK's own result).
 */
export interface HookwireAgent<
  CALL_OPTIONS,
  TOOLS extends ToolSet,
  CONTEXT extends Context,
  OUTPUT extends OutputInterface,
> {
  readonly version: 'agent-v1';
  /** The agent's `id` setting. */
  readonly id: string | undefined;
  /** The agent's own tools, as given (not wrapped). */
  readonly tools: TOOLS;
  generate(
    parameters: Parameters<ToolLoopAgent<CALL_OPTIONS, TOOLS, CONTEXT, OUTPUT>['generate']>[0],
  ): Promise<GenerateTextResult<TOOLS, CONTEXT, OUTPUT>>;
  stream(
    parameters: Parameters<ToolLoopAgent<CALL_OPTIONS, TOOLS, CONTEXT, OUTPUT>['stream']>[0],
  ): HookwireStreamTextResult<TOOLS, CONTEXT, OUTPUT>;
}

type AnyGenerateOptions = GenerateTextOptions<ToolSet, Context, OutputInterface>;
type AnyStreamOptions = StreamTextOptions<ToolSet, Context, OutputInterface>;
type AnyGenerateResult = GenerateTextResult<ToolSet, Context, OutputInterface>;
type AnyStreamResult = StreamTextResult<ToolSet, Context, OutputInterface>;

/** The turns of the hookwire instance the agent runs in (its `generateText` / `streamText`). */
export interface AgentTurns {
  generate(
    options: AnyGenerateOptions,
    call: (prepared: AnyGenerateOptions) => Promise<AnyGenerateResult>,
  ): Promise<AnyGenerateResult>;
  stream(
    options: AnyStreamOptions,
    call: (prepared: AnyStreamOptions) => Promise<AnyStreamResult>,
  ): HookwireStreamTextResult<ToolSet, Context>;
}

interface CallParameters {
  readonly prompt?: string | ModelMessage[] | undefined;
  readonly messages?: ModelMessage[] | undefined;
  readonly abortSignal?: AbortSignal | undefined;
}

/**
 * The call callbacks hookwire may merge its own into (see step-records.ts), taken from the
 * prepared options into the agent's call. The agent merges its settings' tool-execution
 * callbacks with the call's itself; its model-call ones the call's replace, so the turn starts
 * from the call's, else the settings'.
 */
const MODEL_CALL_CALLBACKS = ['onLanguageModelCallStart', 'onLanguageModelCallEnd'] as const;
const CALL_CALLBACKS = [
  ...MODEL_CALL_CALLBACKS,
  'onToolExecutionStart',
  'onToolExecutionEnd',
] as const;

function callbacksOf(source: object, names: readonly string[]): Readonly<Record<string, unknown>> {
  const record = source as Readonly<Record<string, unknown>>;
  return Object.fromEntries(
    names.flatMap((name) => (record[name] === undefined ? [] : [[name, record[name]]])),
  );
}

interface PreparedOptions extends CallParameters {
  readonly model: unknown;
  readonly tools?: ToolSet | undefined;
  readonly stopWhen?: unknown;
  readonly toolApproval?: unknown;
}

/** Builds the agent (`hw.toolLoopAgent`). */
export function hookwireAgent<
  CALL_OPTIONS,
  TOOLS extends ToolSet,
  CONTEXT extends Context,
  OUTPUT extends OutputInterface,
>(
  settings: ToolLoopAgentSettings<CALL_OPTIONS, TOOLS, CONTEXT, OUTPUT>,
  turns: AgentTurns,
): HookwireAgent<CALL_OPTIONS, TOOLS, CONTEXT, OUTPUT> {
  if (typeof settings.model === 'string') {
    throw new TypeError(
      'hookwire wraps a model instance, not a model id string: pass e.g. openai("gpt-5") instead of "openai/gpt-5".',
    );
  }
  const loose = settings as unknown as ToolLoopAgentSettings<never, ToolSet, Context>;

  /** What hookwire's turn sees of a call: the agent's model, tools and budget, the call's prompt. */
  const turnOptions = (parameters: CallParameters): PreparedOptions => ({
    ...callbacksOf(settings, MODEL_CALL_CALLBACKS),
    ...callbacksOf(parameters, CALL_CALLBACKS),
    model: settings.model,
    ...(settings.tools === undefined ? {} : { tools: settings.tools }),
    stopWhen: settings.stopWhen ?? isStepCount(AGENT_DEFAULT_STEPS),
    ...(settings.toolApproval === undefined ? {} : { toolApproval: settings.toolApproval }),
    ...(parameters.messages === undefined
      ? { prompt: parameters.prompt }
      : { messages: parameters.messages }),
    ...(parameters.abortSignal === undefined ? {} : { abortSignal: parameters.abortSignal }),
  });

  /** One round: the agent, with what hookwire prepared, on the turn's messages. */
  const round = (prepared: PreparedOptions) => {
    const agent = new ToolLoopAgent({
      ...loose,
      model: prepared.model as typeof loose.model,
      tools: prepared.tools ?? {},
      stopWhen: prepared.stopWhen as typeof loose.stopWhen,
      ...(prepared.toolApproval === undefined
        ? {}
        : { toolApproval: prepared.toolApproval as typeof loose.toolApproval }),
    });
    const prompt = {
      ...callbacksOf(prepared, CALL_CALLBACKS),
      ...(prepared.messages === undefined
        ? { prompt: prepared.prompt ?? '' }
        : { messages: prepared.messages }),
    };
    return { agent, prompt };
  };

  /** The call's own parameters without its prompt (the turn supplies the messages). */
  const rest = (parameters: CallParameters): Record<string, unknown> => {
    const {
      prompt: _prompt,
      messages: _messages,
      ...others
    } = parameters as Record<string, unknown>;
    return others;
  };

  return {
    version: 'agent-v1',
    get id() {
      return settings.id;
    },
    get tools() {
      return settings.tools as TOOLS;
    },
    generate(parameters) {
      const call = parameters as CallParameters;
      return turns.generate(turnOptions(call) as AnyGenerateOptions, (prepared) => {
        const { agent, prompt } = round(prepared);
        return agent.generate({ ...rest(call), ...prompt }) as Promise<AnyGenerateResult>;
      }) as unknown as Promise<GenerateTextResult<TOOLS, CONTEXT, OUTPUT>>;
    },
    stream(parameters) {
      const call = parameters as CallParameters;
      return turns.stream(turnOptions(call) as AnyStreamOptions, (prepared) => {
        const { agent, prompt } = round(prepared);
        return agent.stream({ ...rest(call), ...prompt }) as Promise<AnyStreamResult>;
      }) as unknown as HookwireStreamTextResult<TOOLS, CONTEXT, OUTPUT>;
    },
  };
}
