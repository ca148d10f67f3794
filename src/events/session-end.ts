/** `sessionEnd` (external `SessionEnd`): the session is closing. Observe only. */
import { z } from 'zod';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import { CONTINUE, firstDecision, ObservationAction } from './shared.ts';

export const SESSION_END_REASONS = [
  'exit',
  'clear',
  'logout',
  'prompt_input_exit',
  'other',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export interface SessionEndEvent {
  readonly reason: SessionEndReason;
}

/** The payload fields of `SessionEnd`. */
export interface SessionEndInput {
  readonly reason: SessionEndReason;
}

type External = ExternalSide<
  'SessionEnd',
  SessionEndEvent,
  ObservationAction,
  SessionEndInput,
  object
>;

/** Observe only: the first stop short-circuits. */
export const sessionEnd: EventDefinition<
  'sessionEnd',
  'onSessionEnd',
  SessionEndEvent,
  ObservationAction,
  External
> = {
  kind: 'sessionEnd',
  method: 'onSessionEnd',
  actionKinds: ['continue', 'stop'],
  compose: firstDecision(CONTINUE),
  external: {
    name: 'SessionEnd',
    aliases: [],
    matcher: 'reason',
    can: { deny: false, stop: false, textIsContext: false, failClosed: undefined },
    input: () => ({ reason: z.enum(SESSION_END_REASONS) }),
    output: () => ({}),
    toPayload: (event) => ({ reason: event.reason }),
    fromPayload: (payload) => ({ reason: payload.reason }),
    toAction: () => ObservationAction.continue(),
    describeAction: () => ({}),
  },
};
