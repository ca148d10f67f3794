/**
 * `hookwire hooks stats`: per hook, across sessions, how often it ran, what it decided, how often
 * it failed, and how long it took — computed from the transcripts' `hook-run` records, the
 * sessions' subagent transcripts included (their runs counted apart, by agent type).
 */
import type { HookRunDecision, ObservedHookRun } from '../../hooks/index.ts';
import type { TranscriptRecord } from '../../loop/index.ts';
import { allAgents, type ReadAgentTranscript } from './read-sessions.ts';

/** The decisions in the order they are reported. */
export const DECISIONS: readonly HookRunDecision[] = [
  'allow',
  'deny',
  'stop',
  'rewrite',
  'context',
];

/**
 * One hook's figures. A hook is one (event, name, kind): the same script on two events is two.
 * Its runs inside subagents are figures of their own, one per agent type (`agentType`).
 */
export interface HookStats {
  readonly event: string;
  readonly hook: string;
  readonly kind: string;
  /** The agent type of the subagents these runs were in; absent: the main agent's runs. */
  readonly agentType?: string;
  /** How many subagents (distinct agent ids) these runs were in; absent for the main agent. */
  readonly agents?: number;
  readonly runs: number;
  readonly decisions: Readonly<Record<HookRunDecision, number>>;
  /** Runs that failed to answer other than by timing out (crash, bad output, could not start). */
  readonly failures: number;
  /** Runs that timed out. */
  readonly timeouts: number;
  /** Runs that failed closed (a failure or a timeout on a `failClosed` hook, which denied). */
  readonly failedClosed: number;
  /** Latency in milliseconds: median (the middle run, or the mean of the middle two), p95 (nearest rank), max. */
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

/** Figures across the sessions read. */
export interface HookStatsReport {
  readonly sessions: readonly string[];
  /** Sessions whose transcript has no hook-run record (no hook ran, or written before version 2). */
  readonly sessionsWithoutRuns: readonly string[];
  readonly hooks: readonly HookStats[];
}

/** The median of sorted values (the mean of the middle two for an even count). */
export function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The nearest-rank percentile `p` (0–100) of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? 0;
}

interface Tally {
  readonly event: string;
  readonly hook: string;
  readonly kind: string;
  readonly agentType: string | undefined;
  readonly agentIds: Set<string>;
  readonly decisions: Record<HookRunDecision, number>;
  failures: number;
  timeouts: number;
  failedClosed: number;
  readonly durations: number[];
}

function add(tally: Tally, run: ObservedHookRun): void {
  tally.decisions[run.decision] += 1;
  if (run.timedOut) tally.timeouts++;
  else if (run.status === 'warning' || run.status === 'error' || run.status === 'failed-closed')
    tally.failures++;
  if (run.failedClosed) tally.failedClosed++;
  tally.durations.push(run.durationMs);
}

/**
 * Computes the report from each session's records and its subagents' (`agents`), hooks sorted
 * by event, then name, then the main agent's before each agent type's.
 */
export function hookStats(
  sessions: readonly {
    readonly sessionId: string;
    readonly records: readonly TranscriptRecord[];
    readonly agents?: readonly ReadAgentTranscript[];
  }[],
): HookStatsReport {
  const tallies = new Map<string, Tally>();
  const without: string[] = [];
  for (const session of sessions) {
    let runs = 0;
    const transcripts: {
      records: readonly TranscriptRecord[];
      agent?: { id: string; type: string };
    }[] = [
      { records: session.records },
      ...allAgents(session.agents ?? []).map((agent) => ({
        records: agent.records,
        agent: { id: agent.agentId, type: agent.agentType },
      })),
    ];
    for (const { records, agent } of transcripts)
      for (const record of records) {
        if (record.type !== 'hook-run') continue;
        const run = record.run;
        runs++;
        const key = JSON.stringify([run.event, run.hook, run.kind, agent?.type ?? null]);
        let tally = tallies.get(key);
        if (tally === undefined) {
          tally = {
            event: run.event,
            hook: run.hook,
            kind: run.kind,
            agentType: agent?.type,
            agentIds: new Set(),
            decisions: { allow: 0, deny: 0, stop: 0, rewrite: 0, context: 0 },
            failures: 0,
            timeouts: 0,
            failedClosed: 0,
            durations: [],
          };
          tallies.set(key, tally);
        }
        if (agent !== undefined) tally.agentIds.add(agent.id);
        add(tally, run);
      }
    if (runs === 0) without.push(session.sessionId);
  }
  const hooks = [...tallies.values()]
    .map((tally): HookStats => {
      const sorted = [...tally.durations].sort((a, b) => a - b);
      return {
        event: tally.event,
        hook: tally.hook,
        kind: tally.kind,
        ...(tally.agentType === undefined
          ? {}
          : { agentType: tally.agentType, agents: tally.agentIds.size }),
        runs: sorted.length,
        decisions: tally.decisions,
        failures: tally.failures,
        timeouts: tally.timeouts,
        failedClosed: tally.failedClosed,
        medianMs: median(sorted),
        p95Ms: percentile(sorted, 95),
        maxMs: sorted[sorted.length - 1] ?? 0,
      };
    })
    .sort(
      (a, b) =>
        a.event.localeCompare(b.event) ||
        a.hook.localeCompare(b.hook) ||
        (a.agentType === undefined ? -1 : 0) - (b.agentType === undefined ? -1 : 0) ||
        (a.agentType ?? '').localeCompare(b.agentType ?? ''),
    );
  return {
    sessions: sessions.map((session) => session.sessionId),
    sessionsWithoutRuns: without,
    hooks,
  };
}

function milliseconds(value: number): string {
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

const HEADINGS = [
  'EVENT',
  'HOOK',
  'KIND',
  'RUNS',
  ...DECISIONS.map((decision) => decision.toUpperCase()),
  'FAILED',
  'TIMEOUT',
  'MEDIAN',
  'P95',
  'MAX',
];

/**
 * The readable table: one aligned row per hook, then which sessions were read. When some runs
 * were in subagents, an AGENT column says whose runs a row counts (`main`, or the agent type
 * with how many subagents of it ran).
 */
export function formatHookStats(report: HookStatsReport): string {
  const lines: string[] = [];
  if (report.hooks.length === 0) {
    lines.push(`No hook runs recorded in ${report.sessions.length} session(s).`);
  } else {
    const withAgents = report.hooks.some((stats) => stats.agentType !== undefined);
    const headings = withAgents
      ? [...HEADINGS.slice(0, 3), 'AGENT', ...HEADINGS.slice(3)]
      : HEADINGS;
    const agentCell = (stats: HookStats): string[] =>
      !withAgents
        ? []
        : [
            stats.agentType === undefined
              ? 'main'
              : `${stats.agentType} (${stats.agents ?? 0} subagent${stats.agents === 1 ? '' : 's'})`,
          ];
    const rows = [
      headings,
      ...report.hooks.map((stats) => [
        stats.event,
        stats.hook,
        stats.kind,
        ...agentCell(stats),
        String(stats.runs),
        ...DECISIONS.map((decision) => String(stats.decisions[decision])),
        stats.failedClosed > 0
          ? `${stats.failures} (${stats.failedClosed} closed)`
          : String(stats.failures),
        String(stats.timeouts),
        milliseconds(stats.medianMs),
        milliseconds(stats.p95Ms),
        milliseconds(stats.maxMs),
      ]),
    ];
    const widths = headings.map((_, column) =>
      Math.max(...rows.map((row) => (row[column] ?? '').length)),
    );
    for (const row of rows)
      lines.push(
        row
          .map((cell, column) =>
            column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
          )
          .join('  '),
      );
  }
  lines.push(
    '',
    `Sessions read (${report.sessions.length}): ${report.sessions.join(', ') || 'none'}`,
  );
  if (report.sessionsWithoutRuns.length > 0)
    lines.push(
      `No hook-run records in ${report.sessionsWithoutRuns.join(', ')} (no hook ran, or the transcript predates version 2).`,
    );
  return `${lines.join('\n')}\n`;
}
