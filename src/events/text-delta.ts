/** `textDelta` (in-process only): a streamed text fragment of the model's answer. */
import type { EventDefinition } from './define-event.ts';
import { CONTINUE, firstDecision, type ObservationAction } from './shared.ts';

export interface TextDeltaEvent {
  readonly delta: string;
  /** Text accumulated for the model turn so far. */
  readonly aggregated: string;
}

/** Observe only: the first stop short-circuits. Fires per token (the stack keeps a fast path for it). */
export const textDelta: EventDefinition<
  'textDelta',
  'onTextDelta',
  TextDeltaEvent,
  ObservationAction
> = {
  kind: 'textDelta',
  method: 'onTextDelta',
  actionKinds: ['continue', 'stop'],
  compose: firstDecision(CONTINUE),
  external: undefined,
};
