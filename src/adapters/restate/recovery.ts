/**
 * Per-tool recovery of a durable session: what a tool call that was running when its worker died
 * becomes. `rerun` for tools that are safe to run twice (reading), `report` for the rest (the
 * model is told the call was interrupted and may or may not have run). Settings key `recovery`,
 * e.g. `{ "shell": "report", "mcp__db__query": "rerun" }`.
 */

/** What an interrupted call becomes. */
export type RecoveryPolicy = 'rerun' | 'report';

/** The tools that rerun unless the settings say otherwise: they only read. */
export const DEFAULT_RERUN_TOOLS: readonly string[] = ['read_file', 'glob', 'grep'];

/** The policy of each tool: `overrides` first, then the defaults (`report` for unknown tools). */
export function recoveryPolicies(
  overrides: Readonly<Record<string, RecoveryPolicy>> = {},
): (toolName: string) => RecoveryPolicy {
  return (toolName) =>
    overrides[toolName] ?? (DEFAULT_RERUN_TOOLS.includes(toolName) ? 'rerun' : 'report');
}
