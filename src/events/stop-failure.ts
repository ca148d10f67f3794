/**
 * `stopFailure` (external `StopFailure`): a turn ended in failure (a safety filter, a provider
 * error, an unresolved invalid tool call, a hook that threw). Observe only.
 */
import { z } from 'zod';
import type { FinishReason } from '../content/index.ts';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import { CONTINUE, firstDecision, jsonRecord, ObservationAction } from './shared.ts';

/** A turn ended in failure (external `StopFailure`): a safety filter, a provider error, … */
export interface StopFailureEvent {
  readonly error: string;
  readonly finishReason: FinishReason | undefined;
  readonly rawStopReason: string | undefined;
  readonly prompt: string;
}

/** The payload fields of `StopFailure`. */
export interface StopFailureInput {
  readonly error: string;
  readonly error_details?: Readonly<Record<string, unknown>>;
  readonly prompt?: string;
}

type External = ExternalSide<
  'StopFailure',
  StopFailureEvent,
  ObservationAction,
  StopFailureInput,
  object
>;

/** Observe only: the first stop short-circuits. */
export const stopFailure: EventDefinition<
  'stopFailure',
  'onStopFailure',
  StopFailureEvent,
  ObservationAction,
  External
> = {
  kind: 'stopFailure',
  method: 'onStopFailure',
  actionKinds: ['continue', 'stop'],
  compose: firstDecision(CONTINUE),
  external: {
    name: 'StopFailure',
    aliases: [],
    // Claude Code matches StopFailure on an error type; hookwire reports free-text errors, so no matcher.
    matcher: undefined,
    can: { deny: false, stop: false, textIsContext: false, failClosed: undefined },
    input: () => ({
      error: z.string(),
      error_details: jsonRecord().optional(),
      prompt: z.string().optional(),
    }),
    output: () => ({}),
    toPayload: (event) => ({
      error: event.error,
      prompt: event.prompt,
      ...(event.finishReason === undefined
        ? {}
        : {
            error_details: {
              finishReason: event.finishReason,
              ...(event.rawStopReason === undefined ? {} : { rawStopReason: event.rawStopReason }),
            },
          }),
    }),
    fromPayload: (payload) => ({
      error: payload.error,
      finishReason: undefined,
      rawStopReason: undefined,
      prompt: payload.prompt ?? '',
    }),
    toAction: () => ObservationAction.continue(),
    describeAction: () => ({}),
  },
};
