/** `toolCallDelta` (in-process only): a streamed fragment of a tool call's arguments. */
import type { EventDefinition } from './define-event.ts';
import { CONTINUE, firstDecision, type ObservationAction } from './shared.ts';

export interface ToolCallDeltaEvent {
  /** Stable across this call's fragments within the model turn. */
  readonly index: number;
  readonly toolCallId: string | undefined;
  readonly toolName: string | undefined;
  readonly delta: string;
}

/** Observe only: the first stop short-circuits. */
export const toolCallDelta: EventDefinition<
  'toolCallDelta',
  'onToolCallDelta',
  ToolCallDeltaEvent,
  ObservationAction
> = {
  kind: 'toolCallDelta',
  method: 'onToolCallDelta',
  actionKinds: ['continue', 'stop'],
  compose: firstDecision(CONTINUE),
  external: undefined,
};
