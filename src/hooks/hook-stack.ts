/**
 * `HookStack`: an ordered composition of `AgentHook`s that is itself an `AgentHook`, so stacks
 * nest and a nested stack composes exactly as if its members were spliced into the parent.
 *
 * Dispatch is synchronous as long as every member answers synchronously: a stack only turns
 * asynchronous at the first member that returns a promise, and continues from there. Members are
 * grouped per event kind when the stack changes, so an event visits only the members interested in
 * it and an event no member observes costs one lookup.
 *
 * The composition rule of every event is stated on its method below and on its action type.
 */
import type { LanguageModel, ModelResponse, ToolChoice } from '../content/index.ts';
import { aggregateToolChoice } from '../wire/tool-choice.ts';
import {
  CompletionCallAction,
  ContextAction,
  ModelOutputAction,
  ModelSelectionAction,
  ObservationAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  ToolResultAction,
  ToolSelectionAction,
  type InvalidToolCallAction,
  type ModelTurnAction,
} from './actions.ts';
import { HOOK_METHOD, type AgentHook, type Awaitable } from './agent-hook.ts';
import type { HookContext } from './context.ts';
import {
  type CompletionCallEvent,
  type CompletionResponseEvent,
  type HookEventKind,
  type InterruptEvent,
  type InvalidToolCallEvent,
  type ModelOutputEvent,
  type ModelSelectionEvent,
  type ModelTurnFinishedEvent,
  type NotificationEvent,
  type PreCompactEvent,
  type PromptSubmitEvent,
  type ReasoningDeltaEvent,
  type SessionEndEvent,
  type SessionStartEvent,
  type StopEvent,
  type StopFailureEvent,
  type StreamFinishEvent,
  type TextDeltaEvent,
  type ToolCallDeltaEvent,
  type ToolCallEvent,
  type ToolFailureEvent,
  type ToolResultEvent,
  type ToolSelectionEvent,
} from './events.ts';
import { HookError } from './hook-error.ts';
import { isEmptyRequestPatch, mergeRequestPatches, type RequestPatch } from './request-patch.ts';

/** What a stack does when a member throws, rejects or returns a value that is not an action. */
export type HookErrorPolicy = 'fail' | 'record';

export interface HookStackOptions {
  /** Diagnostics name of the stack (`HookError.hookName` when a parent stack names it). Default `HookStack`. */
  readonly name?: string;
  /**
   * `fail` (default): the member's `HookError` is thrown and fails the run. `record`: the error is
   * reported as a warning through `context.report`, kept in `stack.errors`, passed to
   * `onRecordedError`, and the member counts as having continued (`run`, `keep`, no decision, …).
   */
  readonly onHookError?: HookErrorPolicy;
  /** Called with each error recorded under `onHookError: 'record'`. */
  readonly onRecordedError?: (error: HookError) => void;
}

/**
 * The outcome of resolving a tool call through a stack: the final action and the arguments in
 * force with it. `args` is the effective arguments (the last rewrite, or `event.args` when nothing
 * rewrote them), also when the action is `skip` or `stop`: a rewrite survives a later skip or stop.
 */
export interface ToolCallResolution {
  readonly action: ToolCallAction;
  readonly args: unknown;
  /** True when some hook rewrote the arguments. */
  readonly rewritten: boolean;
}

/** Separator used when a stack joins `additionalContext` strings or `Stop` block reasons. */
export const JOIN_SEPARATOR = '\n';

// Bumped on every change of any stack: a parent's per-kind member lists depend on its nested
// stacks' `observes`, so a push into a nested stack must invalidate the parent too.
let generation = 0;

// A member whose failure was recorded: composition treats it as having continued.
const RECORDED: unique symbol = Symbol('recorded hook failure');
const NEXT: unique symbol = Symbol('next hook');

type Invoke = (hook: AgentHook, context: HookContext, event: never) => unknown;
type MemberLists = Record<HookEventKind, readonly AgentHook[]>;
/** A member known (from the per-kind lists) to implement method `Method`. */
type Implementing<Method extends keyof AgentHook> = AgentHook & Required<Pick<AgentHook, Method>>;

// The shared singletons of the hot answers: an identity check skips reading `kind`.
const CONTINUED = ObservationAction.continue();
const RAN = ToolCallAction.run();

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { readonly then?: unknown }).then === 'function'
  );
}

function kindOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null
    ? (value as { readonly kind?: unknown }).kind
    : undefined;
}

function describeReturned(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const kind = kindOf(value);
  return kind === undefined
    ? 'an object without a `kind`'
    : `an action of kind ${JSON.stringify(kind)}`;
}

function join(earlier: string | undefined, later: string): string {
  return earlier === undefined ? later : earlier + JOIN_SEPARATOR + later;
}

// Event kinds a member may answer with, per event, checked on every non-continue answer so a hook
// written in plain JavaScript that returns nonsense fails loudly instead of steering silently.
const ALLOWED_KINDS: Record<HookEventKind, ReadonlySet<unknown>> = {
  modelSelection: new Set(['continue', 'select', 'stop']),
  completionCall: new Set(['continue', 'patch', 'respond', 'deny', 'stop']),
  toolSelection: new Set(['continue', 'choose']),
  modelOutput: new Set(['continue', 'replace', 'deny', 'stop']),
  completionResponse: new Set(['continue', 'stop']),
  modelTurnFinished: new Set(['continue', 'repeat', 'retry', 'stop']),
  invalidToolCall: new Set(['fail', 'retry', 'repair', 'skip', 'stop']),
  toolCall: new Set(['run', 'rewrite', 'skip', 'stop']),
  toolResult: new Set(['keep', 'rewrite', 'stop']),
  toolFailure: new Set(['continue', 'stop']),
  textDelta: new Set(['continue', 'stop']),
  reasoningDelta: new Set(['continue', 'stop']),
  toolCallDelta: new Set(['continue', 'stop']),
  streamFinish: new Set(['continue', 'stop']),
  sessionStart: new Set(['continue', 'stop']),
  sessionEnd: new Set(['continue', 'stop']),
  promptSubmit: new Set(['continue', 'deny', 'stop']),
  stop: new Set(['continue', 'block', 'stop']),
  stopFailure: new Set(['continue', 'stop']),
  interrupt: new Set(['continue', 'stop']),
  preCompact: new Set(['continue', 'stop']),
  notification: new Set(['continue', 'stop']),
};

// One invoker per event: a direct, named method call site per kind keeps dispatch as cheap as a
// hand-written loop (the property load stays monomorphic per kind).
const invokeCompletionCall: Invoke = (hook, context, event: CompletionCallEvent) =>
  hook.onCompletionCall?.(context, event);
const invokeToolSelection: Invoke = (hook, context, event: ToolSelectionEvent) =>
  hook.onToolSelection?.(context, event);
const invokeModelOutput: Invoke = (hook, context, event: ModelOutputEvent) =>
  hook.onModelOutput?.(context, event);
const invokeCompletionResponse: Invoke = (hook, context, event: CompletionResponseEvent) =>
  hook.onCompletionResponse?.(context, event);
const invokeModelTurnFinished: Invoke = (hook, context, event: ModelTurnFinishedEvent) =>
  hook.onModelTurnFinished?.(context, event);
const invokeInvalidToolCall: Invoke = (hook, context, event: InvalidToolCallEvent) =>
  hook.onInvalidToolCall?.(context, event);
const invokeToolCall: Invoke = (hook, context, event: ToolCallEvent) =>
  hook.onToolCall?.(context, event);
const invokeToolResult: Invoke = (hook, context, event: ToolResultEvent) =>
  hook.onToolResult?.(context, event);
const invokeToolFailure: Invoke = (hook, context, event: ToolFailureEvent) =>
  hook.onToolFailure?.(context, event);
const invokeTextDelta: Invoke = (hook, context, event: TextDeltaEvent) =>
  hook.onTextDelta?.(context, event);
const invokeReasoningDelta: Invoke = (hook, context, event: ReasoningDeltaEvent) =>
  hook.onReasoningDelta?.(context, event);
const invokeToolCallDelta: Invoke = (hook, context, event: ToolCallDeltaEvent) =>
  hook.onToolCallDelta?.(context, event);
const invokeStreamFinish: Invoke = (hook, context, event: StreamFinishEvent) =>
  hook.onStreamFinish?.(context, event);
const invokeSessionStart: Invoke = (hook, context, event: SessionStartEvent) =>
  hook.onSessionStart?.(context, event);
const invokePromptSubmit: Invoke = (hook, context, event: PromptSubmitEvent) =>
  hook.onPromptSubmit?.(context, event);
const invokeStop: Invoke = (hook, context, event: StopEvent) => hook.onStop?.(context, event);
const invokeStopFailure: Invoke = (hook, context, event: StopFailureEvent) =>
  hook.onStopFailure?.(context, event);
const invokeInterrupt: Invoke = (hook, context, event: InterruptEvent) =>
  hook.onInterrupt?.(context, event);
const invokePreCompact: Invoke = (hook, context, event: PreCompactEvent) =>
  hook.onPreCompact?.(context, event);
const invokeNotification: Invoke = (hook, context, event: NotificationEvent) =>
  hook.onNotification?.(context, event);
const invokeSessionEnd: Invoke = (hook, context, event: SessionEndEvent) =>
  hook.onSessionEnd?.(context, event);

/**
 * A composition rule for the events that carry state from one member to the next (patches,
 * chained rewrites, joined contexts). `accept` returns `NEXT` to go on or the stack's final answer
 * to short-circuit; `finish` builds the answer after the last member.
 */
interface Fold<State> {
  readonly kind: HookEventKind;
  readonly invoke: Invoke;
  start(event: unknown): State;
  /** The event the next member sees (chained values applied). */
  eventFor(state: State, event: unknown): unknown;
  accept(
    state: State,
    action: never,
    stack: HookStack,
    hook: AgentHook,
    context: HookContext,
  ): unknown;
  finish(state: State): unknown;
}

interface CompletionCallState {
  patch: RequestPatch | undefined;
  /** The one patch action seen so far, returned as is when no other member patches. */
  single: CompletionCallAction | undefined;
}

const completionCallFold: Fold<CompletionCallState> = {
  kind: 'completionCall',
  invoke: invokeCompletionCall,
  start: () => ({ patch: undefined, single: undefined }),
  eventFor: (_state, event) => event,
  accept(state, action: CompletionCallAction, stack, hook, context) {
    if (action.kind === 'continue') return NEXT;
    if (action.kind !== 'patch') return action; // respond, deny or stop: earlier patches are discarded
    if (state.patch === undefined) {
      state.patch = action.patch;
      state.single = action;
    } else {
      state.patch = mergeRequestPatches(state.patch, action.patch, (field) => {
        context.report({
          level: 'warning',
          text: `two completion-call hooks set RequestPatch.${field} for the same model call; the later one ("${stack.nameOf(hook)}") wins`,
          hookName: stack.nameOf(hook),
          event: 'completionCall',
        });
      });
      state.single = undefined;
    }
    return NEXT;
  },
  finish(state) {
    if (state.patch === undefined || isEmptyRequestPatch(state.patch))
      return CompletionCallAction.continue();
    return state.single ?? CompletionCallAction.patch(state.patch);
  },
};

const toolSelectionFold: Fold<ToolChoice[]> = {
  kind: 'toolSelection',
  invoke: invokeToolSelection,
  start: () => [],
  eventFor: (_state, event) => event,
  accept(state, action: ToolSelectionAction) {
    if (action.kind === 'choose') state.push(action.toolChoice);
    return NEXT;
  },
  finish(state) {
    const combined = aggregateToolChoice(state);
    return combined === undefined
      ? ToolSelectionAction.continue()
      : ToolSelectionAction.choose(combined);
  },
};

interface ModelOutputState {
  response: ModelResponse | undefined;
}

const modelOutputFold: Fold<ModelOutputState> = {
  kind: 'modelOutput',
  invoke: invokeModelOutput,
  start: () => ({ response: undefined }),
  eventFor: (state, event) =>
    state.response === undefined
      ? event
      : { ...(event as ModelOutputEvent), response: state.response },
  accept(state, action: ModelOutputAction) {
    if (action.kind === 'continue') return NEXT;
    if (action.kind === 'replace') {
      state.response = action.response;
      return NEXT;
    }
    return action; // deny or stop
  },
  finish: (state) =>
    state.response === undefined
      ? ModelOutputAction.continue()
      : ModelOutputAction.replace(state.response),
};

interface ToolResultState {
  presentation: unknown;
  rewritten: boolean;
  additionalContext: string | undefined;
}

const toolResultFold: Fold<ToolResultState> = {
  kind: 'toolResult',
  invoke: invokeToolResult,
  start: () => ({ presentation: undefined, rewritten: false, additionalContext: undefined }),
  eventFor: (state, event) =>
    state.rewritten ? { ...(event as ToolResultEvent), presentation: state.presentation } : event,
  accept(state, action: ToolResultAction) {
    if (action.kind === 'stop') return action;
    if (action.kind === 'rewrite') {
      state.presentation = action.presentation;
      state.rewritten = true;
    }
    if (action.additionalContext !== undefined) {
      state.additionalContext = join(state.additionalContext, action.additionalContext);
    }
    return NEXT;
  },
  finish(state) {
    if (state.rewritten) {
      return state.additionalContext === undefined
        ? ToolResultAction.rewrite(state.presentation)
        : ToolResultAction.rewrite(state.presentation, state.additionalContext);
    }
    return ToolResultAction.keep(state.additionalContext);
  },
};

interface JoinState {
  joined: string | undefined;
}

function contextFold(kind: HookEventKind, invoke: Invoke): Fold<JoinState> {
  return {
    kind,
    invoke,
    start: () => ({ joined: undefined }),
    eventFor: (_state, event) => event,
    accept(state, action: ContextAction | PromptSubmitAction) {
      if (action.kind !== 'continue') return action; // stop (or deny): contexts are discarded
      if (action.additionalContext !== undefined)
        state.joined = join(state.joined, action.additionalContext);
      return NEXT;
    },
    finish: (state) => ContextAction.continue(state.joined),
  };
}

const toolFailureFold = contextFold('toolFailure', invokeToolFailure);
const sessionStartFold = contextFold('sessionStart', invokeSessionStart);
const preCompactFold = contextFold('preCompact', invokePreCompact);
const promptSubmitFold: Fold<JoinState> = {
  ...contextFold('promptSubmit', invokePromptSubmit),
  finish: (state) => PromptSubmitAction.continue(state.joined),
};

const stopFold: Fold<JoinState> = {
  kind: 'stop',
  invoke: invokeStop,
  start: () => ({ joined: undefined }),
  eventFor: (_state, event) => event,
  accept(state, action: StopAction) {
    if (action.kind === 'stop') return action; // the first stop wins over every block
    if (action.kind === 'block') state.joined = join(state.joined, action.reason);
    return NEXT;
  },
  finish: (state) =>
    state.joined === undefined ? StopAction.continue() : StopAction.block(state.joined),
};

/**
 * An ordered stack of hooks, itself an `AgentHook` (stacks nest; a nested stack behaves exactly
 * like its members registered flat in its place).
 *
 * Composition, per event (registration order throughout):
 * - model selection: selections chain (each member sees the candidate chosen before it in
 *   `event.selected`); the last selection wins; a stop is terminal. Synchronous only.
 * - completion call: patches accumulate with `mergeRequestPatches` (warnings go to
 *   `context.report`); the first `respond`, `deny` or `stop` short-circuits and discards them.
 * - tool selection: choices aggregate (`none` > `required` > `auto`; allowlists intersect; an
 *   omitted list is unrestricted).
 * - model output: replacements chain (later members see the replaced response); the first
 *   `deny` or `stop` short-circuits.
 * - model turn finished and every observe-only event: the first non-continue short-circuits.
 * - invalid tool call: the first decision wins; `undefined` defers; no decision → `undefined`
 *   (the loop fails fast).
 * - tool call: rewrites chain (later members see the rewritten `event.args`); the first `skip` or
 *   `stop` short-circuits and an earlier rewrite survives it (carried as the action's `args`, and
 *   returned by `resolveToolCall`).
 * - tool result: presentation rewrites chain (raw result untouched); `additionalContext` joined in
 *   order; the first `stop` short-circuits.
 * - session start, tool failure, pre-compact, prompt submit: `additionalContext` joined in order;
 *   the first `stop` (or `deny` for prompts) short-circuits.
 * - stop: `block` reasons joined in order; the first `stop` short-circuits and wins.
 *
 * A member that throws, rejects or answers with a value that is not an action of its event becomes
 * a `HookError` naming the member, the event kind and the cause; see `HookStackOptions.onHookError`.
 */
export class HookStack implements AgentHook {
  readonly name: string;
  readonly #hooks: AgentHook[] = [];
  readonly #errors: HookError[] = [];
  readonly #policy: HookErrorPolicy;
  readonly #onRecordedError: ((error: HookError) => void) | undefined;
  #members: MemberLists = memberLists(() => []);
  #generation = -1;

  constructor(hooks: readonly AgentHook[] = [], options: HookStackOptions = {}) {
    this.name = options.name ?? 'HookStack';
    this.#policy = options.onHookError ?? 'fail';
    this.#onRecordedError = options.onRecordedError;
    for (const hook of hooks) this.push(hook);
  }

  /**
   * Appends a hook at the end of the registration order. Its interest (`observes`, or the methods
   * it implements) is read now and whenever any stack changes; keep `observes` stable.
   */
  push(hook: AgentHook): this {
    if ((hook as unknown) === this)
      throw new TypeError(`HookStack "${this.name}" cannot contain itself`);
    this.#hooks.push(hook);
    generation++;
    return this;
  }

  /** Number of members (a nested stack counts as one). */
  get size(): number {
    return this.#hooks.length;
  }

  /** The members, in registration order. */
  get hooks(): readonly AgentHook[] {
    return this.#hooks;
  }

  /** Errors recorded under `onHookError: 'record'`, oldest first. */
  get errors(): readonly HookError[] {
    return this.#errors;
  }

  /**
   * True when some member observes `kind`: the OR of the members. A member without `observes`
   * observes exactly the kinds whose method it implements. The loop checks this before building
   * an event, so an unobserved event (above all a stream delta) costs nothing.
   */
  observes(kind: HookEventKind): boolean {
    return this.#membersFor(kind).length > 0;
  }

  /** The diagnostics name of a member: its `name`, else its class name, else `hook #i` (one-based). */
  nameOf(hook: AgentHook): string {
    if (typeof hook.name === 'string' && hook.name !== '') return hook.name;
    const prototype: unknown = Object.getPrototypeOf(hook);
    const constructorName =
      typeof prototype === 'object' && prototype !== null
        ? (prototype as { readonly constructor?: { readonly name?: unknown } }).constructor?.name
        : undefined;
    if (
      typeof constructorName === 'string' &&
      constructorName !== '' &&
      constructorName !== 'Object'
    ) {
      return constructorName;
    }
    return `hook #${this.#hooks.indexOf(hook) + 1}`;
  }

  // --- model-call step ---------------------------------------------------------------------------

  /** Selections chain; the last selection wins; the first stop is terminal. Synchronous. */
  onModelSelection(context: HookContext, event: ModelSelectionEvent): ModelSelectionAction {
    const members = this.#membersFor('modelSelection');
    let selected: LanguageModel | undefined;
    let current = event;
    for (let index = 0; index < members.length; index++) {
      const hook = members[index] as AgentHook;
      let result: unknown;
      try {
        result = hook.onModelSelection?.(context, current);
        if (isThenable(result)) {
          // Swallow the orphaned promise's eventual rejection: the error below already reports it.
          Promise.resolve(result).catch(ignore);
          throw new TypeError(
            'onModelSelection must return its action synchronously, not a promise',
          );
        }
      } catch (error) {
        this.#failed(error, hook, 'modelSelection', context);
        continue;
      }
      const kind = kindOf(result);
      if (kind === 'continue') continue;
      if (kind === 'select') {
        selected = (result as { readonly model: LanguageModel }).model;
        current = { ...event, selected };
        continue;
      }
      if (kind === 'stop') return result as ModelSelectionAction;
      this.#invalid(result, hook, 'modelSelection', context);
    }
    return selected === undefined
      ? ModelSelectionAction.continue()
      : ModelSelectionAction.select(selected);
  }

  /** Patches accumulate (`mergeRequestPatches`); the first respond/deny/stop short-circuits and discards them. */
  onCompletionCall(
    context: HookContext,
    event: CompletionCallEvent,
  ): Awaitable<CompletionCallAction> {
    return this.#fold(completionCallFold, context, event) as Awaitable<CompletionCallAction>;
  }

  /** Choices aggregate: `none` > `required` > `auto`; allowlists intersect; omitted = unrestricted. */
  onToolSelection(context: HookContext, event: ToolSelectionEvent): Awaitable<ToolSelectionAction> {
    return this.#fold(toolSelectionFold, context, event) as Awaitable<ToolSelectionAction>;
  }

  /** Replacements chain into later members; the first deny/stop short-circuits. */
  onModelOutput(context: HookContext, event: ModelOutputEvent): Awaitable<ModelOutputAction> {
    return this.#fold(modelOutputFold, context, event) as Awaitable<ModelOutputAction>;
  }

  /** The first stop short-circuits. */
  onCompletionResponse(
    context: HookContext,
    event: CompletionResponseEvent,
  ): Awaitable<ObservationAction> {
    return this.#observe('completionResponse', invokeCompletionResponse, context, event);
  }

  /** The first non-continue (repeat, retry, stop) short-circuits. */
  onModelTurnFinished(
    context: HookContext,
    event: ModelTurnFinishedEvent,
  ): Awaitable<ModelTurnAction> {
    return this.#observe('modelTurnFinished', invokeModelTurnFinished, context, event);
  }

  // --- tool step ---------------------------------------------------------------------------------

  /** The first decision wins; `undefined` defers to later members; none at all → `undefined`. */
  onInvalidToolCall(
    context: HookContext,
    event: InvalidToolCallEvent,
  ): Awaitable<InvalidToolCallAction | undefined> {
    return this.#observe('invalidToolCall', invokeInvalidToolCall, context, event);
  }

  /**
   * Rewrites chain; the first skip/stop short-circuits. Returns `rewrite(args)` when some member
   * rewrote and all proceeded, `run` when none rewrote, and the terminal skip/stop carrying the
   * effective `args` when a rewrite preceded it (so a parent stack keeps the rewrite).
   */
  onToolCall(context: HookContext, event: ToolCallEvent): Awaitable<ToolCallAction> {
    return this.#toolCall(context, event, false) as Awaitable<ToolCallAction>;
  }

  /**
   * Resolves a tool call like `onToolCall`, returning the final action together with the
   * effective arguments (what the tool runs with, or what a skip/stop happened with).
   */
  resolveToolCall(context: HookContext, event: ToolCallEvent): Awaitable<ToolCallResolution> {
    return this.#toolCall(context, event, true) as Awaitable<ToolCallResolution>;
  }

  /** Presentation rewrites chain (raw untouched); contexts joined in order; the first stop short-circuits. */
  onToolResult(context: HookContext, event: ToolResultEvent): Awaitable<ToolResultAction> {
    return this.#fold(toolResultFold, context, event) as Awaitable<ToolResultAction>;
  }

  /** Contexts joined in order; the first stop short-circuits. */
  onToolFailure(context: HookContext, event: ToolFailureEvent): Awaitable<ContextAction> {
    return this.#fold(toolFailureFold, context, event) as Awaitable<ContextAction>;
  }

  // --- streaming ---------------------------------------------------------------------------------

  /** The first stop short-circuits. */
  // Deltas fire per token: a hand-written loop with a direct call per member, leaving for the
  // generic path only at the first answer that is not a synchronous continue.
  onTextDelta(context: HookContext, event: TextDeltaEvent): Awaitable<ObservationAction> {
    const members = this.#lists().textDelta as readonly Implementing<'onTextDelta'>[];
    for (let index = 0; index < members.length; index++) {
      const hook = members[index] as Implementing<'onTextDelta'>;
      let result: unknown;
      try {
        result = hook.onTextDelta(context, event);
      } catch (error) {
        this.#failed(error, hook, 'textDelta', context);
        continue;
      }
      if (result !== CONTINUED && kindOf(result) !== 'continue') {
        return this.#observeFrom(
          'textDelta',
          invokeTextDelta,
          context,
          event,
          members,
          index,
          result,
        );
      }
    }
    return ObservationAction.continue();
  }

  /** The first stop short-circuits. */
  onReasoningDelta(context: HookContext, event: ReasoningDeltaEvent): Awaitable<ObservationAction> {
    const members = this.#lists().reasoningDelta as readonly Implementing<'onReasoningDelta'>[];
    for (let index = 0; index < members.length; index++) {
      const hook = members[index] as Implementing<'onReasoningDelta'>;
      let result: unknown;
      try {
        result = hook.onReasoningDelta(context, event);
      } catch (error) {
        this.#failed(error, hook, 'reasoningDelta', context);
        continue;
      }
      if (result !== CONTINUED && kindOf(result) !== 'continue') {
        return this.#observeFrom(
          'reasoningDelta',
          invokeReasoningDelta,
          context,
          event,
          members,
          index,
          result,
        );
      }
    }
    return ObservationAction.continue();
  }

  /** The first stop short-circuits. */
  onToolCallDelta(context: HookContext, event: ToolCallDeltaEvent): Awaitable<ObservationAction> {
    const members = this.#lists().toolCallDelta as readonly Implementing<'onToolCallDelta'>[];
    for (let index = 0; index < members.length; index++) {
      const hook = members[index] as Implementing<'onToolCallDelta'>;
      let result: unknown;
      try {
        result = hook.onToolCallDelta(context, event);
      } catch (error) {
        this.#failed(error, hook, 'toolCallDelta', context);
        continue;
      }
      if (result !== CONTINUED && kindOf(result) !== 'continue') {
        return this.#observeFrom(
          'toolCallDelta',
          invokeToolCallDelta,
          context,
          event,
          members,
          index,
          result,
        );
      }
    }
    return ObservationAction.continue();
  }

  /** The first stop short-circuits. */
  onStreamFinish(context: HookContext, event: StreamFinishEvent): Awaitable<ObservationAction> {
    return this.#observe('streamFinish', invokeStreamFinish, context, event);
  }

  // --- lifecycle ---------------------------------------------------------------------------------

  /** Contexts joined in order; the first stop short-circuits. */
  onSessionStart(context: HookContext, event: SessionStartEvent): Awaitable<ContextAction> {
    return this.#fold(sessionStartFold, context, event) as Awaitable<ContextAction>;
  }

  /** Contexts joined in order; the first deny or stop short-circuits (contexts discarded). */
  onPromptSubmit(context: HookContext, event: PromptSubmitEvent): Awaitable<PromptSubmitAction> {
    return this.#fold(promptSubmitFold, context, event) as Awaitable<PromptSubmitAction>;
  }

  /** Block reasons joined in order; the first stop short-circuits and wins over any block. */
  onStop(context: HookContext, event: StopEvent): Awaitable<StopAction> {
    return this.#fold(stopFold, context, event) as Awaitable<StopAction>;
  }

  /** The first stop short-circuits. */
  onStopFailure(context: HookContext, event: StopFailureEvent): Awaitable<ObservationAction> {
    return this.#observe('stopFailure', invokeStopFailure, context, event);
  }

  /** The first stop short-circuits. */
  onInterrupt(context: HookContext, event: InterruptEvent): Awaitable<ObservationAction> {
    return this.#observe('interrupt', invokeInterrupt, context, event);
  }

  /** Contexts (compaction instructions) joined in order; the first stop short-circuits. */
  onPreCompact(context: HookContext, event: PreCompactEvent): Awaitable<ContextAction> {
    return this.#fold(preCompactFold, context, event) as Awaitable<ContextAction>;
  }

  /** The first stop short-circuits. */
  onNotification(context: HookContext, event: NotificationEvent): Awaitable<ObservationAction> {
    return this.#observe('notification', invokeNotification, context, event);
  }

  /** The first stop short-circuits. */
  onSessionEnd(context: HookContext, event: SessionEndEvent): Awaitable<ObservationAction> {
    return this.#observe('sessionEnd', invokeSessionEnd, context, event);
  }

  // --- dispatch engine ---------------------------------------------------------------------------

  #membersFor(kind: HookEventKind): readonly AgentHook[] {
    return this.#lists()[kind];
  }

  /**
   * The current per-kind lists. Hot paths read their list by name from this (`.textDelta`) so the
   * property load stays monomorphic per call site.
   */
  #lists(): MemberLists {
    if (this.#generation !== generation) this.#rebuild();
    return this.#members;
  }

  #rebuild(): void {
    const hooks = this.#hooks;
    this.#members = memberLists((kind) => {
      const method = HOOK_METHOD[kind];
      return hooks.filter(
        (hook) =>
          typeof hook[method] === 'function' &&
          (hook.observes === undefined || hook.observes(kind)),
      );
    });
    this.#generation = generation;
  }

  /** Calls one member; a synchronous throw becomes a `HookError` (thrown or recorded → `RECORDED`). */
  #call(
    invoke: Invoke,
    hook: AgentHook,
    context: HookContext,
    event: unknown,
    kind: HookEventKind,
  ): unknown {
    try {
      return invoke(hook, context, event as never);
    } catch (error) {
      this.#failed(error, hook, kind, context);
      return RECORDED;
    }
  }

  async #settle(
    pending: PromiseLike<unknown>,
    hook: AgentHook,
    kind: HookEventKind,
    context: HookContext,
  ) {
    try {
      return await pending;
    } catch (error) {
      this.#failed(error, hook, kind, context);
      return RECORDED;
    }
  }

  #failed(error: unknown, hook: AgentHook, kind: HookEventKind, context: HookContext): void {
    // Wrap once: a nested stack's HookError already names the member that failed.
    const wrapped = HookError.isHookError(error)
      ? error
      : new HookError({ hookName: this.nameOf(hook), event: kind, cause: error });
    if (this.#policy === 'fail') throw wrapped;
    this.#errors.push(wrapped);
    context.report({
      level: 'warning',
      text: `${wrapped.message} (recorded; the run continues as if the hook had not acted)`,
      hookName: wrapped.hookName,
      event: wrapped.event,
    });
    this.#onRecordedError?.(wrapped);
  }

  #invalid(result: unknown, hook: AgentHook, kind: HookEventKind, context: HookContext): void {
    const method = HOOK_METHOD[kind];
    const expected = [...ALLOWED_KINDS[kind]].map((value) => JSON.stringify(value)).join(', ');
    this.#failed(
      new TypeError(
        `${method} returned ${describeReturned(result)}; return an action of kind ${expected}${
          kind === 'invalidToolCall' ? ' (or undefined to defer)' : ''
        }, e.g. built with its action constructor`,
      ),
      hook,
      kind,
      context,
    );
  }

  /**
   * First-non-continue dispatch (observers, model turn, invalid tool call). The continue answer is
   * `continue`, or `undefined` for the invalid-tool-call event.
   */
  #observe<Action>(
    kind: HookEventKind,
    invoke: Invoke,
    context: HookContext,
    event: unknown,
  ): Awaitable<Action> {
    const members = this.#membersFor(kind);
    if (members.length === 0) {
      return (kind === 'invalidToolCall' ? undefined : ObservationAction.continue()) as Action;
    }
    const first = this.#call(invoke, members[0] as AgentHook, context, event, kind);
    return this.#observeFrom(kind, invoke, context, event, members, 0, first);
  }

  /** Continues first-non-continue dispatch from member `index`, whose answer is `result`. */
  #observeFrom<Action>(
    kind: HookEventKind,
    invoke: Invoke,
    context: HookContext,
    event: unknown,
    members: readonly AgentHook[],
    index: number,
    result: unknown,
  ): Awaitable<Action> {
    for (;;) {
      if (isThenable(result)) {
        return this.#observeAsync(kind, invoke, context, event, members, index, result);
      }
      const hook = members[index] as AgentHook;
      if (kindOf(result) !== 'continue' && this.#decisive(result, hook, kind, context)) {
        return result as Action;
      }
      index++;
      if (index >= members.length) break;
      result = this.#call(invoke, members[index] as AgentHook, context, event, kind);
    }
    return (kind === 'invalidToolCall' ? undefined : ObservationAction.continue()) as Action;
  }

  async #observeAsync<Action>(
    kind: HookEventKind,
    invoke: Invoke,
    context: HookContext,
    event: unknown,
    members: readonly AgentHook[],
    index: number,
    pending: PromiseLike<unknown>,
  ): Promise<Action> {
    for (;;) {
      const hook = members[index] as AgentHook;
      const result = await this.#settle(pending, hook, kind, context);
      if (kindOf(result) !== 'continue' && this.#decisive(result, hook, kind, context))
        return result as Action;
      index++;
      if (index >= members.length) break;
      const next = this.#call(invoke, members[index] as AgentHook, context, event, kind);
      pending = isThenable(next) ? next : Promise.resolve(next);
    }
    return (kind === 'invalidToolCall' ? undefined : ObservationAction.continue()) as Action;
  }

  /** For a non-continue answer: true when it decides the event, false when it passes (deferral, recorded failure). */
  #decisive(result: unknown, hook: AgentHook, kind: HookEventKind, context: HookContext): boolean {
    if (result === RECORDED) return false;
    if (result === undefined && kind === 'invalidToolCall') return false;
    if (ALLOWED_KINDS[kind].has(kindOf(result))) return true;
    this.#invalid(result, hook, kind, context);
    return false;
  }

  #fold<State>(fold: Fold<State>, context: HookContext, event: unknown): unknown {
    const members = this.#membersFor(fold.kind);
    const state = fold.start(event);
    for (let index = 0; index < members.length; index++) {
      const hook = members[index] as AgentHook;
      const result = this.#call(fold.invoke, hook, context, fold.eventFor(state, event), fold.kind);
      if (isThenable(result))
        return this.#foldAsync(fold, context, event, state, members, index, result);
      const outcome = this.#accept(fold, state, result, hook, context);
      if (outcome !== NEXT) return outcome;
    }
    return fold.finish(state);
  }

  async #foldAsync<State>(
    fold: Fold<State>,
    context: HookContext,
    event: unknown,
    state: State,
    members: readonly AgentHook[],
    index: number,
    pending: PromiseLike<unknown>,
  ): Promise<unknown> {
    for (;;) {
      const hook = members[index] as AgentHook;
      const outcome = this.#accept(
        fold,
        state,
        await this.#settle(pending, hook, fold.kind, context),
        hook,
        context,
      );
      if (outcome !== NEXT) return outcome;
      index++;
      if (index >= members.length) break;
      const next = this.#call(
        fold.invoke,
        members[index] as AgentHook,
        context,
        fold.eventFor(state, event),
        fold.kind,
      );
      pending = isThenable(next) ? next : Promise.resolve(next);
    }
    return fold.finish(state);
  }

  #accept<State>(
    fold: Fold<State>,
    state: State,
    result: unknown,
    hook: AgentHook,
    context: HookContext,
  ): unknown {
    if (result === RECORDED) return NEXT;
    if (!ALLOWED_KINDS[fold.kind].has(kindOf(result))) {
      this.#invalid(result, hook, fold.kind, context);
      return NEXT;
    }
    return fold.accept(state, result as never, this, hook, context);
  }

  // Tool calls are hand-written (not a Fold): they are frequent, and the all-run path must not
  // allocate.
  #toolCall(
    context: HookContext,
    event: ToolCallEvent,
    resolution: boolean,
  ): Awaitable<ToolCallAction | ToolCallResolution> {
    const members = this.#lists().toolCall as readonly Implementing<'onToolCall'>[];
    let args = event.args;
    let rewritten = false;
    let current = event;
    for (let index = 0; index < members.length; index++) {
      const hook = members[index] as Implementing<'onToolCall'>;
      let result: unknown;
      try {
        result = hook.onToolCall(context, current);
      } catch (error) {
        this.#failed(error, hook, 'toolCall', context);
        continue;
      }
      if (result === RAN) continue;
      const kind = kindOf(result);
      if (kind === 'run') continue;
      if (isThenable(result)) {
        return this.#toolCallAsync(
          context,
          event,
          resolution,
          members,
          index,
          result,
          args,
          rewritten,
        );
      }
      if (kind === 'rewrite') {
        args = (result as { readonly args: unknown }).args;
        rewritten = true;
        current = { ...event, args };
        continue;
      }
      if (kind === 'skip' || kind === 'stop') {
        return terminalToolCall(result as TerminalToolCallAction, args, rewritten, resolution);
      }
      this.#invalid(result, hook, 'toolCall', context);
    }
    return proceedingToolCall(args, rewritten, resolution);
  }

  async #toolCallAsync(
    context: HookContext,
    event: ToolCallEvent,
    resolution: boolean,
    members: readonly AgentHook[],
    index: number,
    pending: PromiseLike<unknown>,
    args: unknown,
    rewritten: boolean,
  ): Promise<ToolCallAction | ToolCallResolution> {
    for (;;) {
      const hook = members[index] as AgentHook;
      const result = await this.#settle(pending, hook, 'toolCall', context);
      if (result !== RECORDED) {
        const kind = kindOf(result);
        if (kind === 'rewrite') {
          args = (result as { readonly args: unknown }).args;
          rewritten = true;
        } else if (kind === 'skip' || kind === 'stop') {
          return terminalToolCall(result as TerminalToolCallAction, args, rewritten, resolution);
        } else if (kind !== 'run') {
          this.#invalid(result, hook, 'toolCall', context);
        }
      }
      index++;
      if (index >= members.length) break;
      const current = rewritten ? { ...event, args } : event;
      const next = this.#call(
        invokeToolCall,
        members[index] as AgentHook,
        context,
        current,
        'toolCall',
      );
      pending = isThenable(next) ? next : Promise.resolve(next);
    }
    return proceedingToolCall(args, rewritten, resolution);
  }
}

/**
 * The per-kind member lists as one object literal with every kind spelled out: built by keyed
 * stores, an object with this many properties would drop to slow dictionary mode, and `observes`
 * runs on every stream delta.
 */
function memberLists(select: (kind: HookEventKind) => readonly AgentHook[]): MemberLists {
  return {
    modelSelection: select('modelSelection'),
    completionCall: select('completionCall'),
    completionResponse: select('completionResponse'),
    modelOutput: select('modelOutput'),
    modelTurnFinished: select('modelTurnFinished'),
    invalidToolCall: select('invalidToolCall'),
    toolCall: select('toolCall'),
    toolResult: select('toolResult'),
    toolFailure: select('toolFailure'),
    textDelta: select('textDelta'),
    reasoningDelta: select('reasoningDelta'),
    toolCallDelta: select('toolCallDelta'),
    streamFinish: select('streamFinish'),
    toolSelection: select('toolSelection'),
    sessionStart: select('sessionStart'),
    sessionEnd: select('sessionEnd'),
    promptSubmit: select('promptSubmit'),
    stop: select('stop'),
    stopFailure: select('stopFailure'),
    interrupt: select('interrupt'),
    preCompact: select('preCompact'),
    notification: select('notification'),
  };
}

type TerminalToolCallAction = Extract<ToolCallAction, { kind: 'skip' | 'stop' }>;

function terminalToolCall(
  action: TerminalToolCallAction,
  args: unknown,
  rewritten: boolean,
  resolution: boolean,
): ToolCallAction | ToolCallResolution {
  let final: ToolCallAction = action;
  if ('args' in action) {
    // The member (typically a nested stack) rewrote before its skip/stop: adopt its arguments.
    args = action.args;
    rewritten = true;
  } else if (rewritten) {
    final =
      action.kind === 'skip'
        ? ToolCallAction.skip(action.reason, args)
        : ToolCallAction.stop(action.reason, args);
  }
  return resolution ? { action: final, args, rewritten } : final;
}

function proceedingToolCall(
  args: unknown,
  rewritten: boolean,
  resolution: boolean,
): ToolCallAction | ToolCallResolution {
  const action = rewritten ? ToolCallAction.rewrite(args) : ToolCallAction.run();
  return resolution ? { action, args, rewritten } : action;
}

function ignore(): void {
  // See the caller: the failure is reported through the HookError instead.
}
