/**
 * `subagentStop` (external `SubagentStop`): a subagent answered without tool calls, its final
 * answer about to become the `agent` call's result. A block keeps it working, exactly as a `Stop`
 * block continues a turn, within the same per-turn budget (`stopContinuationsPerTurn`).
 */
import { z } from 'zod';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import { blockReasons, describeStopAction, stopActionFor, type StopAction } from './stop.ts';

/** A subagent finished (external `SubagentStop`). */
export interface SubagentStopEvent {
  readonly agentId: string;
  readonly agentType: string;
  /** True when the subagent is already continuing because a SubagentStop hook blocked. */
  readonly stopHookActive: boolean;
  /** Its final answer: what the parent receives as the `agent` call's result. */
  readonly result: string;
  /** The subagent's own transcript. */
  readonly agentTranscriptPath: string;
  /** Continuations already spent, and the budget (the parent's `stopContinuationsPerTurn`). */
  readonly continuations: number;
  readonly continuationBudget: number;
}

/** The payload fields of `SubagentStop`. */
export interface SubagentStopInput {
  readonly agent_id: string;
  readonly agent_type: string;
  readonly stop_hook_active: boolean;
  readonly result: string;
  readonly agent_transcript_path: string;
}

type External = ExternalSide<
  'SubagentStop',
  SubagentStopEvent,
  StopAction,
  SubagentStopInput,
  object
>;

/**
 * As `Stop`: block reasons joined in order (the subagent continues with them as its next user
 * message); the first `stop` short-circuits, wins over any block, ends the subagent with its
 * answer and stops the parent run.
 */
export const subagentStop: EventDefinition<
  'subagentStop',
  'onSubagentStop',
  SubagentStopEvent,
  StopAction,
  External
> = {
  kind: 'subagentStop',
  method: 'onSubagentStop',
  actionKinds: ['continue', 'block', 'stop'],
  compose: blockReasons(),
  external: {
    name: 'SubagentStop',
    aliases: [],
    matcher: 'agent_type',
    can: { deny: true, stop: true, textIsContext: false, failClosed: 'deny' },
    input: () => ({
      agent_id: z.string(),
      agent_type: z.string(),
      stop_hook_active: z.boolean(),
      result: z.string(),
      agent_transcript_path: z.string(),
    }),
    output: () => ({}),
    toPayload: (event) => ({
      agent_id: event.agentId,
      agent_type: event.agentType,
      stop_hook_active: event.stopHookActive,
      result: event.result,
      agent_transcript_path: event.agentTranscriptPath,
    }),
    fromPayload: (payload) => ({
      agentId: payload.agent_id,
      agentType: payload.agent_type,
      stopHookActive: payload.stop_hook_active,
      result: payload.result,
      agentTranscriptPath: payload.agent_transcript_path,
      continuations: 0,
      continuationBudget: 1,
    }),
    toAction: (outcome, _event, reasons) => stopActionFor(outcome, reasons),
    describeAction: describeStopAction,
  },
};
