/**
 * One action type per event. Each is a discriminated union on `kind` (so a `switch` is checked for
 * exhaustiveness) with a constructor object of the same name that reads well at call sites:
 * `ToolCallAction.rewrite(args)`, `ModelTurnAction.retryWithFeedback(text)`.
 *
 * Composition rules live on `HookStack`; each type's doc says how it composes there.
 */
import type { LanguageModel, ModelResponse, ToolChoice } from '../content/index.ts';
import type { RequestPatch } from './request-patch.ts';

// Shared frozen singletons: continuing is the hot path and allocates nothing.
const CONTINUE = Object.freeze({ kind: 'continue' as const });

/**
 * Observe-only events (responses, deltas, stream finish, session end, interrupt, stop failure,
 * notification). In a stack the first `stop` short-circuits the remaining hooks.
 */
export type ObservationAction =
  { readonly kind: 'continue' } | { readonly kind: 'stop'; readonly reason: string };
export const ObservationAction = {
  continue: (): ObservationAction => CONTINUE,
  stop: (reason: string): ObservationAction => ({ kind: 'stop', reason }),
} as const;

/**
 * Model selection (synchronous). Selections chain: each hook sees the candidate chosen before it;
 * the last selection wins; a stop is terminal.
 */
export type ModelSelectionAction =
  | { readonly kind: 'continue' }
  | { readonly kind: 'select'; readonly model: LanguageModel }
  | { readonly kind: 'stop'; readonly reason: string };
export const ModelSelectionAction = {
  continue: (): ModelSelectionAction => CONTINUE,
  select: (model: LanguageModel): ModelSelectionAction => ({ kind: 'select', model }),
  stop: (reason: string): ModelSelectionAction => ({ kind: 'stop', reason }),
} as const;

/**
 * Before each model call. Patches accumulate in registration order (see `RequestPatch`); the
 * first `respond`, `deny` or `stop` short-circuits the rest, and a `stop`/`deny` discards the
 * patches before it. `respond` skips the model call and uses the synthetic response (the
 * accumulated patches are irrelevant then). `deny` aborts the turn without calling the model;
 * `stop` ends the run.
 */
export type CompletionCallAction =
  | { readonly kind: 'continue' }
  | { readonly kind: 'patch'; readonly patch: RequestPatch }
  | { readonly kind: 'respond'; readonly response: ModelResponse }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const CompletionCallAction = {
  continue: (): CompletionCallAction => CONTINUE,
  patch: (patch: RequestPatch): CompletionCallAction => ({ kind: 'patch', patch }),
  respond: (response: ModelResponse): CompletionCallAction => ({ kind: 'respond', response }),
  deny: (reason: string): CompletionCallAction => ({ kind: 'deny', reason }),
  stop: (reason: string): CompletionCallAction => ({ kind: 'stop', reason }),
} as const;

/**
 * Before each model call, on the tool list. Choices combine across hooks: `none` > `required` >
 * `auto`; explicit allowlists intersect; an omitted list is unrestricted.
 */
export type ToolSelectionAction =
  { readonly kind: 'continue' } | { readonly kind: 'choose'; readonly toolChoice: ToolChoice };
export const ToolSelectionAction = {
  continue: (): ToolSelectionAction => CONTINUE,
  choose: (toolChoice: ToolChoice): ToolSelectionAction => ({ kind: 'choose', toolChoice }),
} as const;

/**
 * The model's output, per chunk when streaming (external `AfterModel`). Replacements chain: a
 * later hook sees the earlier replacement; the first `deny` or `stop` short-circuits.
 */
export type ModelOutputAction =
  | { readonly kind: 'continue' }
  | { readonly kind: 'replace'; readonly response: ModelResponse }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const ModelOutputAction = {
  continue: (): ModelOutputAction => CONTINUE,
  replace: (response: ModelResponse): ModelOutputAction => ({ kind: 'replace', response }),
  deny: (reason: string): ModelOutputAction => ({ kind: 'deny', reason }),
  stop: (reason: string): ModelOutputAction => ({ kind: 'stop', reason }),
} as const;

/**
 * A model turn was accepted. The first non-continue action short-circuits. `repeat` discards the
 * response and prepares the request afresh; `retryWithFeedback` keeps the response and appends the
 * feedback as a user message. Retries are valid only for a tool-free turn and are charged to the
 * run's model-call budget.
 */
export type ModelTurnAction =
  | { readonly kind: 'continue' }
  | { readonly kind: 'repeat' }
  | { readonly kind: 'retry'; readonly feedback: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const ModelTurnAction = {
  continue: (): ModelTurnAction => CONTINUE,
  repeat: (): ModelTurnAction => ({ kind: 'repeat' }),
  retryWithFeedback: (feedback: string): ModelTurnAction => ({ kind: 'retry', feedback }),
  stop: (reason: string): ModelTurnAction => ({ kind: 'stop', reason }),
} as const;

/**
 * A tool call that cannot be dispatched as written. The first hook that decides wins; a hook that
 * returns `undefined` defers to later hooks; no decision at all means fail-fast.
 */
export type InvalidToolCallAction =
  | { readonly kind: 'fail' }
  | { readonly kind: 'retry'; readonly feedback: string }
  | { readonly kind: 'repair'; readonly toolName: string }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const InvalidToolCallAction = {
  fail: (): InvalidToolCallAction => ({ kind: 'fail' }),
  retry: (feedback: string): InvalidToolCallAction => ({ kind: 'retry', feedback }),
  repair: (toolName: string): InvalidToolCallAction => ({ kind: 'repair', toolName }),
  skip: (reason: string): InvalidToolCallAction => ({ kind: 'skip', reason }),
  stop: (reason: string): InvalidToolCallAction => ({ kind: 'stop', reason }),
} as const;

/**
 * Before a valid tool call runs (external `PreToolUse`). Rewrites chain into later hooks; the
 * first `skip` or `stop` short-circuits, and an earlier rewrite survives it (the stack reports the
 * effective arguments beside the action). `skip` sends the reason to the model as the tool's error.
 *
 * `args` on `skip`/`stop` carries the effective arguments when something rewrote them before the
 * terminal action: a `HookStack` sets it so that the rewrite survives across nested stacks (an
 * outer stack adopts it as its own effective arguments), and a hook may set it to rewrite and
 * skip in one step. Absent: the arguments were not rewritten. `HookStack.resolveToolCall`
 * returns the effective arguments beside the action, so the loop need not read it.
 */
export type ToolCallAction =
  | { readonly kind: 'run' }
  | { readonly kind: 'rewrite'; readonly args: unknown }
  | { readonly kind: 'skip'; readonly reason: string; readonly args?: unknown }
  | { readonly kind: 'stop'; readonly reason: string; readonly args?: unknown };
const RUN = Object.freeze({ kind: 'run' as const });
export const ToolCallAction = {
  run: (): ToolCallAction => RUN,
  rewrite: (args: unknown): ToolCallAction => ({ kind: 'rewrite', args }),
  /** `effectiveArgs`: the rewritten arguments in force when skipping (see the type's doc). */
  skip: (reason: string, ...effectiveArgs: [args?: unknown]): ToolCallAction =>
    effectiveArgs.length === 0
      ? { kind: 'skip', reason }
      : { kind: 'skip', reason, args: effectiveArgs[0] },
  /** `effectiveArgs`: the rewritten arguments in force when stopping (see the type's doc). */
  stop: (reason: string, ...effectiveArgs: [args?: unknown]): ToolCallAction =>
    effectiveArgs.length === 0
      ? { kind: 'stop', reason }
      : { kind: 'stop', reason, args: effectiveArgs[0] },
} as const;

/**
 * After a tool call resolves (external `PostToolUse`). Rewrites chain (a later hook sees the
 * earlier presentation) and never touch the raw result; `additionalContext` from every hook is
 * joined in order and given to the model with the result; the first `stop` short-circuits.
 */
export type ToolResultAction =
  | { readonly kind: 'keep'; readonly additionalContext?: string }
  | {
      readonly kind: 'rewrite';
      readonly presentation: unknown;
      readonly additionalContext?: string;
    }
  | { readonly kind: 'stop'; readonly reason: string };
const KEEP = Object.freeze({ kind: 'keep' as const });
export const ToolResultAction = {
  keep: (additionalContext?: string): ToolResultAction =>
    additionalContext === undefined ? KEEP : { kind: 'keep', additionalContext },
  rewrite: (presentation: unknown, additionalContext?: string): ToolResultAction =>
    additionalContext === undefined
      ? { kind: 'rewrite', presentation }
      : { kind: 'rewrite', presentation, additionalContext },
  stop: (reason: string): ToolResultAction => ({ kind: 'stop', reason }),
} as const;

/**
 * Advisory events that may add context (session start, tool failure, pre-compact). Contexts from
 * every hook are joined in registration order; the first `stop` short-circuits.
 */
export type ContextAction =
  | { readonly kind: 'continue'; readonly additionalContext?: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const ContextAction = {
  continue: (additionalContext?: string): ContextAction =>
    additionalContext === undefined ? CONTINUE : { kind: 'continue', additionalContext },
  stop: (reason: string): ContextAction => ({ kind: 'stop', reason }),
} as const;

/**
 * A prompt was submitted (external `UserPromptSubmit`). Contexts join in order; the first `deny`
 * (prompt discarded from history) or `stop` (prompt kept, turn not run) short-circuits.
 */
export type PromptSubmitAction =
  | { readonly kind: 'continue'; readonly additionalContext?: string }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const PromptSubmitAction = {
  continue: (additionalContext?: string): PromptSubmitAction =>
    additionalContext === undefined ? CONTINUE : { kind: 'continue', additionalContext },
  deny: (reason: string): PromptSubmitAction => ({ kind: 'deny', reason }),
  stop: (reason: string): PromptSubmitAction => ({ kind: 'stop', reason }),
} as const;

/**
 * A turn completed (external `Stop`). `block` continues the same turn with the reason as the next
 * user message (bounded per turn); blocks from several hooks join their reasons in order; the
 * first `stop` short-circuits and wins over any block.
 */
export type StopAction =
  | { readonly kind: 'continue' }
  | { readonly kind: 'block'; readonly reason: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const StopAction = {
  continue: (): StopAction => CONTINUE,
  block: (reason: string): StopAction => ({ kind: 'block', reason }),
  stop: (reason: string): StopAction => ({ kind: 'stop', reason }),
} as const;
