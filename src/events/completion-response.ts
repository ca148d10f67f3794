/** `completionResponse` (in-process only): a complete model response (blocking surface). */
import type { Message, ModelResponse, Usage } from '../content/index.ts';
import type { EventDefinition } from './define-event.ts';
import { CONTINUE, firstDecision, type ObservationAction } from './shared.ts';

/** A complete model response (blocking) or the assembled streamed response. Observe only. */
export interface CompletionResponseEvent {
  readonly prompt: Message;
  readonly response: ModelResponse;
  readonly usage: Usage | undefined;
  /** The provider's message/response id, when it gave one. */
  readonly messageId: string | undefined;
  /** The provider's raw response for this attempt, `undefined` for synthetic responses. */
  readonly raw: unknown;
}

/** Observes a complete response (blocking surface). The first stop short-circuits. */
export const completionResponse: EventDefinition<
  'completionResponse',
  'onCompletionResponse',
  CompletionResponseEvent,
  ObservationAction
> = {
  kind: 'completionResponse',
  method: 'onCompletionResponse',
  actionKinds: ['continue', 'stop'],
  compose: firstDecision(CONTINUE),
  external: undefined,
};
