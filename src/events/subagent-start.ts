/**
 * `subagentStart` (external `SubagentStart`): the `agent` tool is about to run a subagent (a
 * child loop with its own history). Hooks may add context the subagent sees with its prompt.
 */
import { z } from 'zod';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import { additionalContextOutput, CONTINUE, ContextAction, joinContexts } from './shared.ts';

/** A subagent is about to start (external `SubagentStart`). */
export interface SubagentStartEvent {
  /** The subagent's id: unique within the session, also its transcript's name. */
  readonly agentId: string;
  /** Its agent type (`general-purpose` when the call named none). */
  readonly agentType: string;
  /** The task the parent gave it (the `agent` tool's `prompt`). */
  readonly prompt: string;
  /** The call's short `description`. */
  readonly description: string;
}

/** The payload fields of `SubagentStart`. */
export interface SubagentStartInput {
  readonly agent_id: string;
  readonly agent_type: string;
  readonly prompt: string;
  readonly description: string;
}

/** The `hookSpecificOutput` of `SubagentStart`. */
export interface SubagentStartOutput {
  readonly additionalContext?: string;
}

type External = ExternalSide<
  'SubagentStart',
  SubagentStartEvent,
  ContextAction,
  SubagentStartInput,
  SubagentStartOutput
>;

/**
 * Contexts joined in registration order (the subagent sees them after its prompt); the first
 * `stop` short-circuits, and the subagent does not run: the `agent` call's result is the reason,
 * as an error, and the parent run stops (a `stop` stops the run on every event that has one).
 */
export const subagentStart: EventDefinition<
  'subagentStart',
  'onSubagentStart',
  SubagentStartEvent,
  ContextAction,
  External
> = {
  kind: 'subagentStart',
  method: 'onSubagentStart',
  actionKinds: ['continue', 'stop'],
  compose: joinContexts(CONTINUE, ContextAction.continue),
  external: {
    name: 'SubagentStart',
    aliases: [],
    matcher: 'agent_type',
    can: { deny: false, stop: true, textIsContext: true, failClosed: 'stop' },
    input: () => ({
      agent_id: z.string(),
      agent_type: z.string(),
      prompt: z.string(),
      description: z.string(),
    }),
    output: () => ({ additionalContext: additionalContextOutput() }),
    toPayload: (event) => ({
      agent_id: event.agentId,
      agent_type: event.agentType,
      prompt: event.prompt,
      description: event.description,
    }),
    fromPayload: (payload) => ({
      agentId: payload.agent_id,
      agentType: payload.agent_type,
      prompt: payload.prompt,
      description: payload.description,
    }),
    toAction: (outcome, _event, reasons) =>
      outcome.stopped
        ? ContextAction.stop(reasons.stop())
        : ContextAction.continue(reasons.context()),
    describeAction: () => ({}),
  },
};
