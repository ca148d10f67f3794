/**
 * `createHookwire` for AI SDK apps: hookwire's hooks, from the same settings files `hookwire run`
 * reads, around the AI SDK's own `generateText` / `streamText`.
 *
 * ```ts
 * import { createHookwire } from 'hookwire/ai-sdk';
 * const hw = await createHookwire({ cwd, settings: ['hooks.json'], hooks: [myGuard] });
 * const result = await hw.generateText({ model, tools, prompt, stopWhen });
 * await hw.close();
 * ```
 *
 * `hw.generateText` / `hw.streamText` take and return the AI SDK's own options and results, and
 * add the turn around the call, with the loop's rules (src/loop/turn-runner.ts):
 * `UserPromptSubmit` (context added to the prompt; a deny rejects with `HookDeniedError`),
 * the wrapped model and tools (see `hookwireMiddleware`, `wrapTools`), then `Stop` — a block runs
 * another round with the reason as the next user message, at most `stopContinuationsPerTurn`
 * times — or `StopFailure` when the call fails or the answer is filtered, or `Interrupt` when
 * the call's `abortSignal` fires.
 */
import type { LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { wrapLanguageModel } from 'ai';
import {
  generateText as aiGenerateText,
  isStepCount,
  streamText as aiStreamText,
  type GenerateTextResult,
  type ModelMessage,
  type OutputInterface,
  type StepResult,
  type StopCondition,
  type StreamTextResult,
  type TextStreamPart,
  type ToolLoopAgentSettings,
  type ToolSet,
} from 'ai';
import type { HookStack } from '../../hooks/stack/hook-stack.ts';
import type { EffectiveSettings } from '../../hook-kinds/settings/effective-settings.ts';
import {
  openEmbeddedSession,
  type EmbeddedSession,
  type HookwireOptions,
} from '../embedding/embedded-session.ts';
import { inRunScope, RunScope } from '../embedding/run-scope.ts';
import {
  hookwireMiddleware,
  observesModelCalls,
  wrapModelWithHooks,
} from './hookwire-middleware.ts';
import {
  afterRound,
  endTurn,
  errorText,
  failedTurn,
  messagesOf,
  openTurn,
  turnIsIdle,
  withMessages,
  withRounds,
} from './ai-sdk-turn.ts';
import { fromModelMessages } from './model-messages.ts';
import { spliceStream } from './spliced-stream.ts';
import { withStepRecords } from './step-records.ts';
import { hookedToolApproval } from './tool-approval.ts';
import { hookwireAgent, type HookwireAgent } from './tool-loop-agent.ts';
import { isWrapped, markWrapped, wrapTools } from './wrap-tools.ts';

type Context = Record<string, unknown>;
type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model'];

/** The options of `generateText` (the AI SDK's own). */
export type GenerateTextOptions<
  TOOLS extends ToolSet,
  CONTEXT extends Context,
  OUTPUT extends OutputInterface,
> = Parameters<typeof aiGenerateText<TOOLS, CONTEXT, OUTPUT>>[0];

/** The options of `streamText` (the AI SDK's own). */
export type StreamTextOptions<
  TOOLS extends ToolSet,
  CONTEXT extends Context,
  OUTPUT extends OutputInterface,
> = Parameters<typeof aiStreamText<TOOLS, CONTEXT, OUTPUT>>[0];

/**
 * What `hw.streamText` returns: the turn's stream across every round (a Stop hook's block runs
 * another round, which streams on in the same `fullStream` / `textStream`), and the turn's
 * outcome once it ends. With no Stop continuation there is one round, and `rounds[0]` is the AI
 * SDK's own `StreamTextResult` (for its UI-stream helpers).
 */
export interface HookwireStreamTextResult<
  TOOLS extends ToolSet,
  CONTEXT extends Context = Context,
  OUTPUT extends OutputInterface = OutputInterface,
> {
  /** Every part of every round, in order. */
  readonly fullStream: ReadableStream<TextStreamPart<TOOLS>> & AsyncIterable<TextStreamPart<TOOLS>>;
  /** The text deltas of every round. */
  readonly textStream: ReadableStream<string> & AsyncIterable<string>;
  /** The final answer: the last round's text. */
  readonly text: Promise<string>;
  /** The last round's finish reason. */
  readonly finishReason: Promise<Awaited<StreamTextResult<TOOLS, CONTEXT, OUTPUT>['finishReason']>>;
  /** The steps of every round. */
  readonly steps: Promise<StepResult<TOOLS, CONTEXT>[]>;
  /**
   * The messages the turn added after the caller's: each round's response messages and the
   * continuation user messages between rounds. Append them to the conversation.
   */
  readonly responseMessages: Promise<ModelMessage[]>;
  /** Each round's AI SDK result. */
  readonly rounds: Promise<StreamTextResult<TOOLS, CONTEXT, OUTPUT>[]>;
  /** Reads the stream to its end (when only the promises are wanted). */
  consumeStream(): Promise<void>;
}

/** A hookwire instance for an AI SDK app. */
export interface Hookwire {
  readonly sessionId: string;
  /** The transcript's path, `undefined` without `transcript: true`. */
  readonly transcriptPath: string | undefined;
  /** Every hook of the instance: the settings' command hooks, then the in-process `hooks`. */
  readonly hooks: HookStack;
  /** The settings every layer and file contributed (as `hookwire hooks list` shows them). */
  readonly settings: EffectiveSettings;
  /** `generateText` with the turn's hooks around it, the model and tools wrapped. */
  generateText<
    TOOLS extends ToolSet = ToolSet,
    CONTEXT extends Context = Context,
    OUTPUT extends OutputInterface = OutputInterface<string, string>,
  >(
    options: GenerateTextOptions<TOOLS, CONTEXT, OUTPUT>,
  ): Promise<GenerateTextResult<TOOLS, CONTEXT, OUTPUT>>;
  /** `streamText` with the turn's hooks around it, the model and tools wrapped. */
  streamText<
    TOOLS extends ToolSet = ToolSet,
    CONTEXT extends Context = Context,
    OUTPUT extends OutputInterface = OutputInterface<string, string>,
  >(
    options: StreamTextOptions<TOOLS, CONTEXT, OUTPUT>,
  ): HookwireStreamTextResult<TOOLS, CONTEXT, OUTPUT>;
  /**
   * The model with the model-call hooks (BeforeModel, BeforeToolSelection, AfterModel), through
   * `middleware()`. Decided per call: while no hook observes a model-call event, a call goes
   * straight to `model` (no middleware layer). One wrapper per model.
   */
  wrapModel(model: WrappableModel): ReturnType<typeof wrapLanguageModel>;
  /**
   * The tools with the tool hooks (PreToolUse, PostToolUse, PostToolUseFailure) and the
   * permission layer. Decided per call: with neither, `execute` is called directly. A streaming
   * tool (`async *execute`) keeps streaming: see `wrapTool`.
   */
  wrapTools<TOOLS extends ToolSet>(tools: TOOLS): TOOLS;
  /**
   * A `ToolLoopAgent` (the AI SDK's agent class) made from the settings `new ToolLoopAgent(...)`
   * takes, with hookwire around each `generate` / `stream` as around `hw.generateText` /
   * `hw.streamText`: the turn's hooks, the model and tools wrapped, tools with `needsApproval`
   * put to PermissionRequest hooks first. See `HookwireAgent`.
   */
  toolLoopAgent<
    CALL_OPTIONS = never,
    TOOLS extends ToolSet = ToolSet,
    CONTEXT extends Context = Context,
    OUTPUT extends OutputInterface = never,
  >(
    settings: ToolLoopAgentSettings<CALL_OPTIONS, TOOLS, CONTEXT, OUTPUT>,
  ): HookwireAgent<CALL_OPTIONS, TOOLS, CONTEXT, OUTPUT>;
  /** The middleware `wrapModel` applies, to compose with other middleware. */
  middleware(): LanguageModelV4Middleware;
  /** Fires SessionEnd and stops every hook process and server. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens a hookwire instance: loads the settings exactly as `hookwire run` does for `cwd` (every
 * layer, then `settings`), composes them with the in-process `hooks`, fires SessionStart.
 * Throws `SettingsError` (every issue of every file) for invalid settings.
 */
export async function createHookwire(options: HookwireOptions = {}): Promise<Hookwire> {
  const session = await openEmbeddedSession(options);
  return new AiSdkHookwire(session);
}

type StopWhen = StopCondition<ToolSet> | StopCondition<ToolSet>[] | undefined;

/** The caller's stop conditions plus "a hook stopped the run". */
function stopWhenWith(stopWhen: StopWhen, scope: RunScope): StopCondition<ToolSet>[] {
  const stopped: StopCondition<ToolSet> = () => scope.stopReason !== undefined;
  // The AI SDK's default is one step (`isStepCount(1)`).
  if (stopWhen === undefined) return [isStepCount(1), stopped];
  return [...(Array.isArray(stopWhen) ? stopWhen : [stopWhen]), stopped];
}

/**
 * True when the call needs the run's scope (an `AsyncLocalStorage` store) to reach its model and
 * tools: when `#prepare` wrapped them, or the caller passed ones `hw.wrapModel` / `hw.wrapTools`
 * made. With nothing wrapped no hookwire code runs inside the AI SDK call, and entering a store
 * would only slow every await of it (each promise carries the store).
 */
function needsScope(
  options: { readonly model: unknown; readonly tools?: ToolSet | undefined },
  prepared: object,
): boolean {
  if (prepared !== options) return true;
  if (typeof options.model === 'object' && options.model !== null && isWrapped(options.model))
    return true;
  return options.tools !== undefined && isWrapped(options.tools);
}

class AiSdkHookwire implements Hookwire {
  readonly #session: EmbeddedSession;
  readonly #middleware: LanguageModelV4Middleware;
  readonly #models = new WeakMap<object, ReturnType<typeof wrapLanguageModel>>();
  readonly #tools = new WeakMap<ToolSet, ToolSet>();

  constructor(session: EmbeddedSession) {
    this.#session = session;
    this.#middleware = hookwireMiddleware(session);
  }

  get sessionId(): string {
    return this.#session.sessionId;
  }

  get transcriptPath(): string | undefined {
    return this.#session.transcriptPath;
  }

  get hooks(): HookStack {
    return this.#session.hooks;
  }

  get settings(): EffectiveSettings {
    return this.#session.settings;
  }

  middleware(): LanguageModelV4Middleware {
    return this.#middleware;
  }

  wrapModel(model: WrappableModel): ReturnType<typeof wrapLanguageModel> {
    if (isWrapped(model)) return model as ReturnType<typeof wrapLanguageModel>;
    // One wrapper per model: an app that passes the same model to every call wraps it once.
    let wrapped = this.#models.get(model);
    if (wrapped === undefined) {
      wrapped = wrapModelWithHooks(this.#session, model, this.#middleware);
      markWrapped(wrapped);
      this.#models.set(model, wrapped);
    }
    return wrapped;
  }

  wrapTools<TOOLS extends ToolSet>(tools: TOOLS): TOOLS {
    let wrapped = this.#tools.get(tools);
    if (wrapped === undefined) {
      wrapped = wrapTools(this.#session, tools);
      // Marked, so that `hw.generateText` given these tools runs them inside the run's scope.
      markWrapped(wrapped);
      this.#tools.set(tools, wrapped);
    }
    return wrapped as TOOLS;
  }

  close(): Promise<void> {
    return this.#session.close('exit');
  }

  /** The call options with the model and tools wrapped, and the hooks' stop condition. */
  #prepare<T extends { model: unknown; tools?: ToolSet | undefined; stopWhen?: unknown }>(
    options: T,
    scope: RunScope,
  ): T {
    if (typeof options.model === 'string') {
      throw new TypeError(
        'hookwire wraps a model instance, not a model id string: pass e.g. openai("gpt-5") instead of "openai/gpt-5".',
      );
    }
    // Only what some hook observes (or the permission layer checks) is wrapped, decided per call:
    // with no hooks and no permissions configured the AI SDK gets the caller's own model, tools
    // and stop conditions.
    const hooks = this.#session.hooks;
    const modelHooks = observesModelCalls(hooks);
    const toolHooks =
      options.tools !== undefined &&
      (this.#session.permissions !== undefined ||
        hooks.observes('toolCall') ||
        hooks.observes('toolResult') ||
        hooks.observes('toolFailure'));
    // A tool's `needsApproval` is put to PermissionRequest hooks first (see tool-approval.ts).
    const toolApproval = hookedToolApproval(this.#session, options, scope);
    // With a transcript, the steps are recorded (see step-records.ts); the wrapped model counts
    // the calls the hook runs are placed in.
    const recording = this.#session.recording;
    if (!modelHooks && !toolHooks && toolApproval === undefined && !recording) return options;
    const prepared: T = {
      ...options,
      ...(toolApproval === undefined ? {} : { toolApproval }),
      ...(modelHooks || recording
        ? { model: this.wrapModel(options.model as WrappableModel) }
        : {}),
      ...(toolHooks && options.tools !== undefined ? { tools: this.wrapTools(options.tools) } : {}),
      // A stop from a model or tool hook ends the call after the current step.
      stopWhen: stopWhenWith(options.stopWhen as StopWhen, scope),
    };
    return withStepRecords(this.#session, scope, prepared);
  }

  generateText<
    TOOLS extends ToolSet = ToolSet,
    CONTEXT extends Context = Context,
    OUTPUT extends OutputInterface = OutputInterface<string, string>,
  >(
    options: GenerateTextOptions<TOOLS, CONTEXT, OUTPUT>,
  ): Promise<GenerateTextResult<TOOLS, CONTEXT, OUTPUT>> {
    return this.#generateTurn(options, aiGenerateText);
  }

  toolLoopAgent<
    CALL_OPTIONS = never,
    TOOLS extends ToolSet = ToolSet,
    CONTEXT extends Context = Context,
    OUTPUT extends OutputInterface = never,
  >(
    settings: ToolLoopAgentSettings<CALL_OPTIONS, TOOLS, CONTEXT, OUTPUT>,
  ): HookwireAgent<CALL_OPTIONS, TOOLS, CONTEXT, OUTPUT> {
    return hookwireAgent(settings, {
      generate: (options, call) => this.#generateTurn(options, call),
      stream: (options, call) => this.#streamTurn(options, call),
    });
  }

  /** `generateText`'s turn around `call` (the AI SDK's `generateText`, or an agent's round). */
  #generateTurn<TOOLS extends ToolSet, CONTEXT extends Context, OUTPUT extends OutputInterface>(
    options: GenerateTextOptions<TOOLS, CONTEXT, OUTPUT>,
    call: (
      options: GenerateTextOptions<TOOLS, CONTEXT, OUTPUT>,
    ) => Promise<GenerateTextResult<TOOLS, CONTEXT, OUTPUT>>,
  ): Promise<GenerateTextResult<TOOLS, CONTEXT, OUTPUT>> {
    const signal = options.abortSignal ?? undefined;
    const scope = new RunScope(this.#session, signal, false);
    let prepared: typeof options;
    try {
      prepared = this.#prepare(options, scope);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(errorText(error)));
    }
    // Nothing wrapped and nothing for the turn to do (no turn hook, no context to add, no
    // transcript): the AI SDK's own call, with not even a promise of ours around it.
    if (prepared === options && !needsScope(options, prepared) && turnIsIdle(this.#session))
      return call(options);
    const body = async (): Promise<GenerateTextResult<TOOLS, CONTEXT, OUTPUT>> => {
      const opened = await openTurn(this.#session, scope, messagesOf(options));
      const turn = { prompt: opened.prompt, continuations: 0, number: opened.turn };
      let history = opened.messages;
      const rounds: GenerateTextResult<TOOLS, CONTEXT, OUTPUT>[] = [];
      const continuations: ModelMessage[] = [];
      for (;;) {
        let result: GenerateTextResult<TOOLS, CONTEXT, OUTPUT>;
        try {
          // The caller's own prompt when no hook changed it: the AI SDK validates `messages` and
          // not a string `prompt`, and an unchanged call must cost what the bare call costs.
          result = await call(
            history === opened.messages && !opened.changed
              ? prepared
              : withMessages(prepared, history),
          );
        } catch (error) {
          const ended = await failedTurn(scope, error, turn.prompt, signal);
          endTurn(this.#session, turn.number, ended);
          throw error;
        }
        rounds.push(result);
        const round = result;
        this.#session.recordMessages(turn.number, () => fromModelMessages(round.responseMessages));
        const next = await afterRound(
          this.#session,
          scope,
          turn,
          () => round.text,
          round.finishReason,
          round.rawFinishReason,
        );
        if (!('continuation' in next)) {
          endTurn(this.#session, turn.number, next);
          return rounds.length === 1 ? result : withRounds(result, rounds, continuations);
        }
        const continuation: ModelMessage = { role: 'user', content: next.continuation };
        this.#session.recordMessages(turn.number, () => fromModelMessages([continuation]));
        continuations.push(continuation);
        history = [...history, ...result.responseMessages, continuation];
      }
    };
    return needsScope(options, prepared) ? inRunScope(scope, body) : body();
  }

  streamText<
    TOOLS extends ToolSet = ToolSet,
    CONTEXT extends Context = Context,
    OUTPUT extends OutputInterface = OutputInterface<string, string>,
  >(
    options: StreamTextOptions<TOOLS, CONTEXT, OUTPUT>,
  ): HookwireStreamTextResult<TOOLS, CONTEXT, OUTPUT> {
    return this.#streamTurn(options, aiStreamText);
  }

  /** `streamText`'s turn around `call` (the AI SDK's `streamText`, or an agent's round). */
  #streamTurn<TOOLS extends ToolSet, CONTEXT extends Context, OUTPUT extends OutputInterface>(
    options: StreamTextOptions<TOOLS, CONTEXT, OUTPUT>,
    call: (
      options: StreamTextOptions<TOOLS, CONTEXT, OUTPUT>,
    ) =>
      StreamTextResult<TOOLS, CONTEXT, OUTPUT> | Promise<StreamTextResult<TOOLS, CONTEXT, OUTPUT>>,
  ): HookwireStreamTextResult<TOOLS, CONTEXT, OUTPUT> {
    type Part = TextStreamPart<TOOLS>;
    type Round = StreamTextResult<TOOLS, CONTEXT, OUTPUT>;
    const signal = options.abortSignal ?? undefined;
    const scope = new RunScope(this.#session, signal, true);
    const rounds: Round[] = [];
    const steps: StepResult<TOOLS, CONTEXT>[] = [];
    const added: ModelMessage[] = [];
    let text = '';
    let finishReason: Awaited<Round['finishReason']> = 'other';

    /** Runs the turn's rounds into `controller`; returns the failure that ended it, if any. */
    const drive = async (
      controller: ReadableStreamDefaultController<Part>,
      prepared: typeof options,
    ): Promise<unknown> => {
      const opened = await openTurn(this.#session, scope, messagesOf(options));
      const turn = { prompt: opened.prompt, continuations: 0, number: opened.turn };
      let history = opened.messages;
      for (;;) {
        let failure: unknown;
        let aborted = false;
        const round = await call(
          history === opened.messages && !opened.changed
            ? prepared
            : withMessages(prepared, history),
        );
        rounds.push(round);
        for await (const part of round.stream) {
          if (part.type === 'error') failure ??= part.error;
          if (part.type === 'abort') aborted = true;
          controller.enqueue(part);
        }
        if (aborted || signal?.aborted === true || failure !== undefined) {
          const ended = await failedTurn(scope, failure, turn.prompt, signal);
          endTurn(this.#session, turn.number, ended);
          return ended.status === 'cancelled' ? undefined : failure;
        }
        const responseMessages = await round.responseMessages;
        this.#session.recordMessages(turn.number, () => fromModelMessages(responseMessages));
        added.push(...responseMessages);
        steps.push(...(await round.steps));
        text = await round.text;
        finishReason = await round.finishReason;
        const raw = await round.rawFinishReason;
        const next = await afterRound(this.#session, scope, turn, () => text, finishReason, raw);
        if (!('continuation' in next)) {
          endTurn(this.#session, turn.number, next);
          return undefined;
        }
        const continuation: ModelMessage = { role: 'user', content: next.continuation };
        this.#session.recordMessages(turn.number, () => fromModelMessages([continuation]));
        added.push(continuation);
        history = [...history, ...responseMessages, continuation];
      }
    };

    const spliced = spliceStream<Part>(
      (controller) => {
        const prepared = this.#prepare(options, scope);
        return needsScope(options, prepared)
          ? inRunScope(scope, () => drive(controller, prepared))
          : drive(controller, prepared);
      },
      (error) => ({ type: 'error', error }),
      (part) => (part.type === 'text-delta' ? part.text : undefined),
    );
    type Result = HookwireStreamTextResult<TOOLS, CONTEXT, OUTPUT>;
    return {
      fullStream: spliced.fullStream as Result['fullStream'],
      textStream: spliced.textStream as Result['textStream'],
      text: spliced.after(() => text),
      finishReason: spliced.after(() => finishReason),
      steps: spliced.after(() => steps),
      responseMessages: spliced.after(() => added),
      rounds: spliced.after(() => rounds),
      consumeStream: () => spliced.consume(),
    };
  }
}
