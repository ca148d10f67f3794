/** `interrupt` (external `Interrupt`): a turn was cancelled. Observe only. */
import { z } from 'zod';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import { CONTINUE, firstDecision, ObservationAction } from './shared.ts';

/** A turn was cancelled (external `Interrupt`). */
export interface InterruptEvent {
  readonly prompt: string;
}

/** The payload fields of `Interrupt`. */
export interface InterruptInput {
  readonly prompt?: string;
}

type External = ExternalSide<
  'Interrupt',
  InterruptEvent,
  ObservationAction,
  InterruptInput,
  object
>;

/** Observe only: the first stop short-circuits. */
export const interrupt: EventDefinition<
  'interrupt',
  'onInterrupt',
  InterruptEvent,
  ObservationAction,
  External
> = {
  kind: 'interrupt',
  method: 'onInterrupt',
  actionKinds: ['continue', 'stop'],
  compose: firstDecision(CONTINUE),
  external: {
    name: 'Interrupt',
    aliases: [],
    matcher: undefined,
    can: { deny: false, stop: false, textIsContext: false, failClosed: undefined },
    input: () => ({ prompt: z.string().optional() }),
    output: () => ({}),
    toPayload: (event) => ({ prompt: event.prompt }),
    fromPayload: (payload) => ({ prompt: payload.prompt ?? '' }),
    toAction: () => ObservationAction.continue(),
    describeAction: () => ({}),
  },
};
