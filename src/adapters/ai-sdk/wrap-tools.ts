/**
 * AI SDK tools whose `execute` fires hookwire's tool hooks, with the loop's rules
 * (src/loop/tool-step.ts):
 *
 * - `PreToolUse` (`toolCall`) before the tool runs: rewrites chain and the tool runs with the
 *   rewritten input; a skip (a command hook's deny) does not run the tool and the model sees
 *   the reason as the tool's error result; a stop does the same and ends the run after this step
 *   (under `hw.generateText` / `hw.streamText`).
 * - The permission rules and mode (settings `permissions`, `permissionMode`), when on, decide on
 *   the arguments as PreToolUse left them, exactly as in `hookwire run`: a deny refuses the call,
 *   an ask fires `PermissionRequest` (a hook allows, possibly with `updatedInput`, re-validated
 *   against the tool's input schema and decided again, or denies), and when no hook decides the
 *   call is refused and a `permission_prompt` Notification fires (nobody can be asked). A refused
 *   call is handled like a skip: `execute` never runs and the model sees the reason.
 * - `PostToolUse` (`toolResult`) after it resolves, and after a skip (`skipped: true`): a
 *   rewrite replaces what the model sees (the app still gets the raw output in `toolResults`),
 *   additional context is appended to what the model sees.
 * - `PostToolUseFailure` (`toolFailure`) when `execute` throws: its context is appended to the
 *   error the model sees; the error still reaches the app as the AI SDK reports tool errors.
 *
 * - A streaming tool (`async *execute`, yielding preliminary results; the last is the output)
 *   keeps streaming: its values pass through unchanged, PostToolUse fires once on the last one
 *   (a rewrite replaces what the model sees of it), and a PreToolUse or permission deny never
 *   starts its generator. (A plain function that returns an async iterable is awaited whole.)
 *
 * A tool without `execute` (client-side, provider-executed) is passed through unchanged. With no
 * hook observing tool events and no permission layer, `execute` is called directly.
 */
import { asSchema, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import type { LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';
import { appendText, jsonValue, toToolResultOutput } from './ai-sdk-prompt.ts';
import { activeScope, RunScope, type HookwireCore } from '../embedding/run-scope.ts';
import { afterToolCall, beforeToolCall, isPromiseLike, toolFailed } from '../../lifecycle/index.ts';

/** What the model sees for one call, decided by PostToolUse hooks. */
interface Presentation {
  readonly rewritten: boolean;
  readonly presentation: unknown;
  readonly additionalContext: string | undefined;
}

/** What PreToolUse and the permissions decided: run with `args`, or the `supplied` result. */
type Before = { readonly args: unknown } | { readonly args: unknown; readonly supplied: unknown };

/** The error the model sees when a hook skipped a call (its message is the hook's reason). */
export class ToolCallDeniedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ToolCallDeniedError';
  }

  /** What the model reads (the AI SDK sends `String(error)`): the hook's reason, as is. */
  override toString(): string {
    return this.message;
  }
}

const WRAPPED = new WeakSet<object>();

/** True for a tool (or model) a hookwire instance already wrapped. */
export function isWrapped(value: object): boolean {
  return WRAPPED.has(value);
}

/** Marks a model (or tool) as wrapped, so wrapping it again is a no-op. */
export function markWrapped(value: object): void {
  WRAPPED.add(value);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/** True for an `async function*` (whose calls return an async generator at once). */
function isAsyncGeneratorFunction(value: unknown): boolean {
  return Object.prototype.toString.call(value) === '[object AsyncGeneratorFunction]';
}

type Execute = NonNullable<Tool['execute']>;
type ToModelOutput = NonNullable<Tool['toModelOutput']>;

/** The AI SDK's own default: a string as text, anything else as JSON. */
function defaultOutput(output: unknown): LanguageModelV4ToolResultOutput {
  return typeof output === 'string'
    ? { type: 'text', value: output }
    : { type: 'json', value: jsonValue(output) };
}

/** Wraps one tool. */
export function wrapTool<T extends Tool>(core: HookwireCore, name: string, tool: T): T {
  const execute = tool.execute;
  if (execute === undefined || WRAPPED.has(tool)) return tool;
  const invoke: Execute = execute;
  const hooks = core.hooks;
  const permissions = core.permissions;
  const original = tool.toModelOutput;
  const presentations = new Map<string, Presentation>();

  const scopeFor = (options: ToolExecutionOptions<unknown>): RunScope =>
    activeScope() ?? new RunScope(core, options.abortSignal, false);

  /**
   * The lifecycle's PostToolUse: a stop rides on the scope to `stopWhen`; a rewrite or context is
   * kept for `toModelOutput`. Returns the context (added to a skipped call's reason).
   */
  async function afterTool(
    scope: RunScope,
    toolCallId: string,
    args: unknown,
    result: unknown,
    error: string | undefined,
  ): Promise<string | undefined> {
    const decided = afterToolCall(scope.lifecycle, {
      toolName: name,
      toolCallId,
      args,
      result,
      error,
      skipped: error !== undefined,
    });
    if (decided === undefined) return undefined;
    const decision = await decided;
    if (decision.stop !== undefined) {
      scope.stopReason ??= decision.stop;
      return undefined;
    }
    if (error === undefined && (decision.rewritten || decision.additionalContext !== undefined))
      presentations.set(toolCallId, {
        rewritten: decision.rewritten,
        presentation: decision.presentation,
        additionalContext: decision.additionalContext,
      });
    return decision.additionalContext;
  }

  // A PermissionRequest hook's `updatedInput` must still be what the tool accepts.
  const validateInput = async (candidate: unknown): Promise<string | undefined> => {
    const validate = asSchema(tool.inputSchema).validate;
    if (validate === undefined) return undefined;
    const result = await validate(candidate);
    return result.success ? undefined : result.error.message;
  };

  /**
   * PreToolUse and the permission layer: the arguments `execute` runs with, a result a hook
   * supplied (`execute` does not run), or a thrown `ToolCallDeniedError` (after PostToolUse with
   * `skipped: true`) when the call must not run.
   */
  async function before(
    scope: RunScope,
    input: unknown,
    options: ToolExecutionOptions<unknown>,
  ): Promise<Before> {
    const { toolCallId } = options;
    const decided = beforeToolCall(
      scope.lifecycle,
      { toolName: name, toolCallId, args: input },
      permissions === undefined
        ? undefined
        : { permissions, cwd: core.session.cwd, validate: validateInput },
    );
    const decision = isPromiseLike(decided) ? await decided : decided;
    if (decision.kind === 'run') return { args: decision.args };
    if (decision.kind === 'supply') return { args: decision.args, supplied: decision.result };
    let reason = decision.reason;
    if (decision.stop !== undefined) scope.stopReason ??= decision.stop;
    else {
      // A skipped or refused call still reaches PostToolUse (`skipped: true`).
      const extra = await afterTool(scope, toolCallId, decision.args, null, reason);
      if (extra !== undefined && extra !== '') reason = `${reason}\n${extra}`;
    }
    throw new ToolCallDeniedError(reason);
  }

  /** PostToolUseFailure for what `execute` threw: the error to rethrow (with the hook's context). */
  async function failure(
    scope: RunScope,
    args: unknown,
    options: ToolExecutionOptions<unknown>,
    thrown: unknown,
  ): Promise<unknown> {
    if (options.abortSignal?.aborted === true) return thrown;
    const decided = toolFailed(scope.lifecycle, {
      toolName: name,
      toolCallId: options.toolCallId,
      args,
      error: errorText(thrown),
    });
    if (decided === undefined) return thrown;
    const decision = await decided;
    if (decision.stop !== undefined) scope.stopReason ??= decision.stop;
    else if (decision.additionalContext !== undefined && decision.additionalContext !== '') {
      const withContext = new Error(`${errorText(thrown)}\n${decision.additionalContext}`, {
        cause: thrown,
      });
      // The model reads the error as `String(error)`: keep the tool's own error name first.
      if (thrown instanceof Error) withContext.name = thrown.name;
      return withContext;
    }
    return thrown;
  }

  async function run(input: unknown, options: ToolExecutionOptions<unknown>): Promise<unknown> {
    const scope = scopeFor(options);
    const decided = await before(scope, input, options);
    const args = decided.args;
    if ('supplied' in decided) {
      await afterTool(scope, options.toolCallId, args, decided.supplied, undefined);
      return decided.supplied;
    }
    let result: unknown;
    try {
      result = await invoke(args, options);
      if (isAsyncIterable(result)) {
        // A plain function that returned an iterable (not an `async *execute`): its last value
        // is its output; its preliminary values cannot stream through a promise.
        let last: unknown;
        for await (const value of result) last = value;
        result = last;
      }
    } catch (thrown) {
      throw await failure(scope, args, options, thrown);
    }
    await afterTool(scope, options.toolCallId, args, result, undefined);
    return result;
  }

  /**
   * A streaming tool (`async *execute`) stays one: PreToolUse and the permissions decide before
   * the tool's generator starts (a deny never starts it), every value it yields passes through
   * unchanged (the AI SDK streams them as preliminary tool results), and PostToolUse fires once,
   * on the last value — the tool's output, which a rewrite replaces for the model.
   */
  async function* runStreaming(
    input: unknown,
    options: ToolExecutionOptions<unknown>,
  ): AsyncGenerator<unknown, void, undefined> {
    const scope = scopeFor(options);
    const decided = await before(scope, input, options);
    const args = decided.args;
    if ('supplied' in decided) {
      // A supplied result is the stream's one value: the tool's generator never starts.
      yield decided.supplied;
      await afterTool(scope, options.toolCallId, args, decided.supplied, undefined);
      return;
    }
    let last: unknown;
    try {
      for await (const value of invoke(args, options) as AsyncIterable<unknown>) {
        last = value;
        yield value;
      }
    } catch (thrown) {
      throw await failure(scope, args, options, thrown);
    }
    await afterTool(scope, options.toolCallId, args, last, undefined);
  }

  const streaming = isAsyncGeneratorFunction(execute);
  const wrappedExecute = (input: unknown, options: ToolExecutionOptions<unknown>): unknown => {
    if (
      permissions === undefined &&
      !hooks.observes('toolCall') &&
      !hooks.observes('toolResult') &&
      !hooks.observes('toolFailure')
    )
      return invoke(input, options);
    return streaming ? runStreaming(input, options) : run(input, options);
  };

  const toModelOutput: ToModelOutput = (options) => {
    const decided = presentations.get(options.toolCallId);
    if (decided === undefined)
      return original === undefined ? defaultOutput(options.output) : original(options);
    presentations.delete(options.toolCallId);
    const present = async (): Promise<LanguageModelV4ToolResultOutput> => {
      const base = decided.rewritten
        ? toToolResultOutput({ result: decided.presentation })
        : original === undefined
          ? defaultOutput(options.output)
          : ((await original(options)) as LanguageModelV4ToolResultOutput);
      return decided.additionalContext === undefined || decided.additionalContext === ''
        ? base
        : appendText(base, decided.additionalContext);
    };
    return present();
  };

  const wrapped = { ...tool, execute: wrappedExecute, toModelOutput } as unknown as T;
  WRAPPED.add(wrapped);
  return wrapped;
}

/** Wraps every tool of a tool set (see `wrapTool`); the keys are the tool names the model sees. */
export function wrapTools<TOOLS extends ToolSet>(core: HookwireCore, tools: TOOLS): TOOLS {
  const wrapped: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools))
    wrapped[name] = wrapTool(core, name, tool as Tool);
  return wrapped as TOOLS;
}
