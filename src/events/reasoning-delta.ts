/** `reasoningDelta` (in-process only): a streamed fragment of the model's reasoning. */
import type { EventDefinition } from './define-event.ts';
import { CONTINUE, firstDecision, type ObservationAction } from './shared.ts';

export interface ReasoningDeltaEvent {
  /** Correlator stable across one reasoning part's deltas. */
  readonly id: string;
  readonly delta: string;
  readonly aggregated: string;
}

/** Observe only: the first stop short-circuits. */
export const reasoningDelta: EventDefinition<
  'reasoningDelta',
  'onReasoningDelta',
  ReasoningDeltaEvent,
  ObservationAction
> = {
  kind: 'reasoningDelta',
  method: 'onReasoningDelta',
  actionKinds: ['continue', 'stop'],
  compose: firstDecision(CONTINUE),
  external: undefined,
};
