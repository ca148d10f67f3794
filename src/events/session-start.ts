/**
 * `sessionStart` (external `SessionStart`): a session opened, started afresh or resumed. Hooks
 * may add context, which waits for (and is given with) the session's first prompt.
 */
import { z } from 'zod';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import { additionalContextOutput, CONTINUE, ContextAction, joinContexts } from './shared.ts';

export const SESSION_START_SOURCES = ['startup', 'resume', 'clear', 'compact'] as const;
export type SessionStartSource = (typeof SESSION_START_SOURCES)[number];

export interface SessionStartEvent {
  readonly source: SessionStartSource;
}

/** The payload fields of `SessionStart`. */
export interface SessionStartInput {
  readonly source: SessionStartSource;
}

/** The `hookSpecificOutput` of `SessionStart`. */
export interface SessionStartOutput {
  readonly additionalContext?: string;
}

type External = ExternalSide<
  'SessionStart',
  SessionStartEvent,
  ContextAction,
  SessionStartInput,
  SessionStartOutput
>;

/** Contexts joined in registration order; the first stop short-circuits (the session opens anyway: SessionStart is advisory). */
export const sessionStart: EventDefinition<
  'sessionStart',
  'onSessionStart',
  SessionStartEvent,
  ContextAction,
  External
> = {
  kind: 'sessionStart',
  method: 'onSessionStart',
  actionKinds: ['continue', 'stop'],
  compose: joinContexts(CONTINUE, ContextAction.continue),
  external: {
    name: 'SessionStart',
    aliases: [],
    matcher: 'source',
    can: { deny: false, stop: true, textIsContext: true, failClosed: 'stop' },
    input: () => ({ source: z.enum(SESSION_START_SOURCES) }),
    output: () => ({ additionalContext: additionalContextOutput() }),
    toPayload: (event) => ({ source: event.source }),
    fromPayload: (payload) => ({ source: payload.source }),
    toAction: (outcome, _event, reasons) =>
      outcome.stopped
        ? ContextAction.stop(reasons.stop())
        : ContextAction.continue(reasons.context()),
    describeAction: () => ({}),
  },
};
