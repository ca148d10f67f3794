import { writeStdout } from '../output/stdout.ts';
import { CliError } from '../cli-error.ts';
import { projectDirOf } from '../settings-options.ts';
import { formatHookStats, hookStats } from '../telemetry/hook-stats.ts';
import { readSessions } from '../telemetry/read-sessions.ts';

/** Options of `hookwire hooks stats`. */
export interface HooksStatsOptions {
  readonly cwd?: string;
  /** How many recent sessions to read when no id is given (default 20). */
  readonly last?: string;
  readonly json?: boolean;
}

/** Sessions read by default: the project's most recent ones. */
export const DEFAULT_STATS_SESSIONS = 20;

function parseLast(value: string | undefined): number {
  if (value === undefined) return DEFAULT_STATS_SESSIONS;
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(count) || count < 1)
    throw new CliError(`--last must be a positive whole number, got "${value}"`);
  return count;
}

/**
 * `hookwire hooks stats [SESSION_ID…]`: per hook — runs, decisions, failures, timeouts, and
 * latency median / p95 / max — across the given sessions of the project (`--cwd`), or its
 * `--last` most recent ones. A table, or (`--json`) the `HookStatsReport`. Lines a crash cut
 * short are skipped with a warning on stderr. Returns 0; an unknown session id is an error.
 */
export async function hooksStatsCommand(
  sessionIds: readonly string[],
  options: HooksStatsOptions,
): Promise<number> {
  const last = parseLast(options.last);
  const sessions = await readSessions(projectDirOf(options), sessionIds, last);
  for (const session of sessions)
    for (const warning of session.warnings) process.stderr.write(`hookwire: ${warning}\n`);
  const report = hookStats(sessions);
  writeStdout(
    options.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatHookStats(report),
  );
  return 0;
}
