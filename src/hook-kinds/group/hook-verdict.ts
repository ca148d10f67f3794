/**
 * What one hook run decided on its own and why, as the `onHookRun` callbacks get it beside the
 * record: the text output prints a line per denial, stop and failed-closed guard from it.
 */
import type { HookRunDecision } from '../../events/observed-hook-run.ts';
import type { HookEventName } from '../../events/index.ts';
import { blockIsFeedback } from '../dialects/translate.ts';
import { decisionOf, type HookRunOutcome } from '../hook-run.ts';

/** A hook run's decision (`decisionOf`) and its reason (its denial, its stop reason, or what failed). */
export interface HookRunVerdict {
  readonly decision: HookRunDecision;
  readonly reason?: string;
}

/**
 * The verdict of one hook run (see `HookRunVerdict`); `dialect` is the group's, whose blocks may
 * be feedback rather than denials (`blockIsFeedback`: Claude Code's `PostToolUse`). `own` is the
 * run's `decisionOf`, when the caller has it already.
 */
export function verdictOf(
  event: HookEventName,
  outcome: HookRunOutcome,
  dialect?: string,
  own: HookRunDecision = decisionOf(event, outcome),
): HookRunVerdict {
  const decision = own === 'deny' && blockIsFeedback(dialect, event) ? 'context' : own;
  const stopReason = outcome.output?.stopReason;
  const reason =
    outcome.denial ??
    (decision === 'stop' && typeof stopReason === 'string' ? stopReason : undefined) ??
    outcome.output?.reason ??
    outcome.record.detail;
  return reason === undefined ? { decision } : { decision, reason };
}
