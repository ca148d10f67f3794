/**
 * `modelTurnFinished` (in-process only): a model answer was accepted and parked before tool
 * execution or finalization.
 */
import type { FinishReason, Message, Usage } from '../content/index.ts';
import type { EventDefinition } from './define-event.ts';
import { CONTINUE, firstDecision } from './shared.ts';

/**
 * A model turn was accepted and parked before tool execution or finalization. A hook may retry a
 * tool-free turn (charged to the run's model-call budget).
 */
export interface ModelTurnFinishedEvent {
  /** One-based model-call index within the run (the same number as `HookContext.modelCall`). */
  readonly modelCall: number;
  /** @deprecated The same number as `modelCall`; use `modelCall`. */
  readonly turn: number;
  readonly content: Message;
  readonly usage: Usage | undefined;
  /** Normalized and reconciled (`stop` with tool calls reads `tool_calls`); `undefined`: none reported. */
  readonly finishReason: FinishReason | undefined;
  readonly rawStopReason: string | undefined;
  /** The output-token cap this attempt ran under, after patches; `undefined`: none sent. */
  readonly maxTokens: number | undefined;
  readonly hasToolCalls: boolean;
  readonly messageId: string | undefined;
  readonly raw: unknown;
}

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

/** The first non-continue (repeat, retry, stop) short-circuits. */
export const modelTurnFinished: EventDefinition<
  'modelTurnFinished',
  'onModelTurnFinished',
  ModelTurnFinishedEvent,
  ModelTurnAction
> = {
  kind: 'modelTurnFinished',
  method: 'onModelTurnFinished',
  actionKinds: ['continue', 'repeat', 'retry', 'stop'],
  compose: firstDecision(CONTINUE),
  external: undefined,
};
