/**
 * `invalidToolCall` (in-process only): a model-emitted tool call that cannot be dispatched as
 * written (unknown tool, arguments that do not parse or validate, a tool not offered).
 */
import type { ToolChoice } from '../content/index.ts';
import type { EventDefinition } from './define-event.ts';
import { firstDecision } from './shared.ts';

/** Why a model-emitted tool call cannot be dispatched as written. */
export type InvalidToolCallReason = 'unknown_tool' | 'invalid_arguments' | 'tool_not_allowed';

export interface InvalidToolCallEvent {
  readonly reason: InvalidToolCallReason;
  /** Human-readable diagnostics: e.g. the JSON Schema errors of the arguments. */
  readonly detail: string;
  readonly toolName: string;
  readonly toolCallId: string;
  /** The arguments the model emitted (decoded JSON, or the raw string when it did not parse). */
  readonly args: unknown;
  readonly availableTools: readonly string[];
  readonly allowedTools: readonly string[];
  readonly toolChoice: ToolChoice | undefined;
}

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

/** The first decision wins; `undefined` defers to later members; none at all → `undefined`. */
export const invalidToolCall: EventDefinition<
  'invalidToolCall',
  'onInvalidToolCall',
  InvalidToolCallEvent,
  InvalidToolCallAction | undefined
> = {
  kind: 'invalidToolCall',
  method: 'onInvalidToolCall',
  actionKinds: ['fail', 'retry', 'repair', 'skip', 'stop'],
  compose: firstDecision<InvalidToolCallEvent, InvalidToolCallAction | undefined>(undefined),
  external: undefined,
};
