/**
 * `notification` (external `Notification`): something the user should know about
 * (`budget_exhausted`, …). Observe only.
 */
import { z } from 'zod';
import { isJsonObject } from '../wire/json-object.ts';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import { CONTINUE, firstDecision, jsonRecord, ObservationAction } from './shared.ts';

export interface NotificationEvent {
  /** e.g. `permission_prompt`, `idle_prompt`, `budget_exhausted`. */
  readonly notificationType: string;
  readonly message: string;
  readonly details: unknown;
}

/** The payload fields of `Notification`. */
export interface NotificationInput {
  readonly notification_type: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

type External = ExternalSide<
  'Notification',
  NotificationEvent,
  ObservationAction,
  NotificationInput,
  object
>;

/** Observe only: the first stop short-circuits. */
export const notification: EventDefinition<
  'notification',
  'onNotification',
  NotificationEvent,
  ObservationAction,
  External
> = {
  kind: 'notification',
  method: 'onNotification',
  actionKinds: ['continue', 'stop'],
  compose: firstDecision(CONTINUE),
  external: {
    name: 'Notification',
    aliases: [],
    matcher: 'notification_type',
    can: { deny: false, stop: false, textIsContext: false, failClosed: undefined },
    input: () => ({
      notification_type: z.string(),
      message: z.string(),
      details: jsonRecord().optional(),
    }),
    output: () => ({}),
    toPayload: (event) => ({
      notification_type: event.notificationType,
      message: event.message,
      ...(isJsonObject(event.details) ? { details: event.details } : {}),
    }),
    fromPayload: (payload) => ({
      notificationType: payload.notification_type,
      message: payload.message,
      details: isJsonObject(payload.details) ? payload.details : undefined,
    }),
    toAction: () => ObservationAction.continue(),
    describeAction: () => ({}),
  },
};
