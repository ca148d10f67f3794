/**
 * The fields every hook output may carry, whatever its event (Claude Code and Gemini CLI): flow
 * control, messages, and the top-level `decision` with its normalisation.
 */
import { z } from 'zod';
import { lazy } from './lazy.ts';

/** The `decision` values hooks print: Gemini `allow`/`deny`, Claude Code `approve`/`block`. */
export const RAW_HOOK_DECISIONS = ['allow', 'deny', 'block', 'approve'] as const;
export type RawHookDecision = (typeof RAW_HOOK_DECISIONS)[number];
/** A decision after normalisation: `approve` reads as `allow`, `block` as `deny`. */
export type HookDecision = 'allow' | 'deny';

function decisionMessage(value: unknown): string {
  if (value === 'ask')
    return '"ask" is not a top-level decision; a PreToolUse hook asks with `hookSpecificOutput.permissionDecision: "ask"`';
  return `${JSON.stringify(value)} is not a decision; expected one of ${RAW_HOOK_DECISIONS.join(', ')}`;
}

/** The zod shape of the fields every hook output may carry (beside `hookSpecificOutput`). */
export const hookOutputCommonShape = lazy(() => ({
  continue: z.boolean().optional().describe('false stops the run; `stopReason` says why.'),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional().describe('Shown to the user.'),
  decision: z
    .enum(RAW_HOOK_DECISIONS, { error: (issue) => decisionMessage(issue.input) })
    .optional()
    .describe('approve reads as allow, block as deny.'),
  reason: z.string().optional(),
}));

/** `approve` → `allow`, `block` → `deny`; `allow`/`deny` unchanged. */
export function normalizeDecision(decision: RawHookDecision): HookDecision {
  return decision === 'approve' || decision === 'allow' ? 'allow' : 'deny';
}
