/**
 * `stop` (external `Stop`, alias `AfterAgent`): a turn completed. See the design brief's "Turn
 * lifecycle": a block continues the same turn with the reason as the next user message.
 */
import { z } from 'zod';
import {
  NEXT,
  joinText,
  type Composition,
  type EventDefinition,
  type ExternalSide,
  type OutcomeReasons,
} from './define-event.ts';
import type { CombinedOutcome } from './combined-outcome.ts';
import { CONTINUE, type JoinState } from './shared.ts';

/** A turn completed (external `Stop`): see the design brief's "Turn lifecycle". */
export interface StopEvent {
  /** True when this turn is already continuing because a Stop hook blocked. */
  readonly stopHookActive: boolean;
  /** The prompt that opened the turn. */
  readonly prompt: string;
  /** The final answer text. */
  readonly promptResponse: string;
  /** Continuations already spent in this turn, and the per-turn budget. */
  readonly continuations: number;
  readonly continuationBudget: number;
}

/**
 * A turn completed (external `Stop`). `block` continues the same turn with the reason as the next
 * user message (bounded per turn); blocks from several hooks join their reasons in order; the
 * first `stop` short-circuits and wins over any block.
 */
export type StopAction =
  | { readonly kind: 'continue' }
  | { readonly kind: 'block'; readonly reason: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const StopAction = {
  continue: (): StopAction => CONTINUE,
  block: (reason: string): StopAction => ({ kind: 'block', reason }),
  stop: (reason: string): StopAction => ({ kind: 'stop', reason }),
} as const;

/**
 * The composition of `Stop` and `SubagentStop`: block reasons joined in order; the first stop
 * short-circuits and wins over any block.
 */
export function blockReasons<Event>(): Composition<Event, StopAction, JoinState> {
  return {
    proceed: CONTINUE,
    start: (): JoinState => ({ joined: undefined }),
    accept(state: JoinState, action) {
      if (action.kind === 'stop') return action; // the first stop wins over every block
      if (action.kind === 'block') state.joined = joinText(state.joined, action.reason);
      return NEXT;
    },
    eventFor: (_state, event) => event,
    finish: (state: JoinState) =>
      state.joined === undefined ? StopAction.continue() : StopAction.block(state.joined),
  };
}

/**
 * The action of `Stop` and `SubagentStop` for a group's combined outcome: a stop wins; a denial
 * (`decision: "block"`, exit 2) blocks with its reasons; else the agent stops as it wanted.
 */
export function stopActionFor(outcome: CombinedOutcome, reasons: OutcomeReasons): StopAction {
  if (outcome.stopped) return StopAction.stop(reasons.stop());
  if (outcome.denied) return StopAction.block(reasons.deny());
  return StopAction.continue();
}

/** What a final `Stop`/`SubagentStop` action changes, in output fields (`hooks fire`). */
export function describeStopAction(action: StopAction): Record<string, unknown> {
  return action.kind === 'block' ? { continueWith: action.reason } : {};
}

/** The payload fields of `Stop`. */
export interface StopInput {
  readonly stop_hook_active: boolean;
  readonly prompt: string;
  readonly prompt_response: string;
}

/** The `hookSpecificOutput` of `Stop`. */
export interface StopOutput {
  readonly clearContext?: boolean;
}

type External = ExternalSide<'Stop', StopEvent, StopAction, StopInput, StopOutput, 'AfterAgent'>;

/** Block reasons joined in order; the first stop short-circuits and wins over any block. */
export const stop: EventDefinition<'stop', 'onStop', StopEvent, StopAction, External> = {
  kind: 'stop',
  method: 'onStop',
  actionKinds: ['continue', 'block', 'stop'],
  compose: blockReasons(),
  external: {
    name: 'Stop',
    aliases: ['AfterAgent'],
    matcher: undefined,
    can: { deny: true, stop: true, textIsContext: false, failClosed: 'deny' },
    input: () => ({
      stop_hook_active: z.boolean(),
      prompt: z.string(),
      prompt_response: z.string(),
    }),
    output: () => ({
      clearContext: z
        .boolean()
        .optional()
        .describe('Gemini CLI AfterAgent: clear the model history.'),
    }),
    toPayload: (event) => ({
      stop_hook_active: event.stopHookActive,
      prompt: event.prompt,
      prompt_response: event.promptResponse,
    }),
    fromPayload: (payload) => ({
      stopHookActive: payload.stop_hook_active,
      prompt: payload.prompt,
      promptResponse: payload.prompt_response,
      continuations: 0,
      continuationBudget: 1,
    }),
    toAction: (outcome, _event, reasons) => stopActionFor(outcome, reasons),
    describeAction: describeStopAction,
  },
};
