/** `streamFinish` (in-process only): the streamed answer, assembled (streaming surface). */
import type { Message, ModelResponse } from '../content/index.ts';
import type { EventDefinition } from './define-event.ts';
import { CONTINUE, firstDecision, type ObservationAction } from './shared.ts';

export interface StreamFinishEvent {
  readonly prompt: Message;
  readonly response: ModelResponse;
}

/** Observe only: the first stop short-circuits. */
export const streamFinish: EventDefinition<
  'streamFinish',
  'onStreamFinish',
  StreamFinishEvent,
  ObservationAction
> = {
  kind: 'streamFinish',
  method: 'onStreamFinish',
  actionKinds: ['continue', 'stop'],
  compose: firstDecision(CONTINUE),
  external: undefined,
};
