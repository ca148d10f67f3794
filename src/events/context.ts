/**
 * What every hook receives beside its event: the run's identity and position, its cancellation
 * signal, the session (for command hooks' base fields), a message sink and the run scratchpad.
 */
import type { ObservedHookRun } from './observed-hook-run.ts';
import type { Scratchpad } from './scratchpad.ts';

/** The session a run belongs to: what command hooks receive as their base payload fields. */
export interface SessionInfo {
  readonly sessionId: string;
  /** Absolute path of the session's JSONL transcript. */
  readonly transcriptPath: string;
  /** The project directory hooks and tools run in. */
  readonly cwd: string;
}

/** Which subagent an event fired in. */
export interface SubagentIdentity {
  readonly id: string;
  readonly type: string;
}

/** A user-visible message a hook raised (`systemMessage`) or a warning about a hook. */
export interface HookReport {
  readonly level: 'message' | 'warning';
  readonly text: string;
  /** The hook that raised it, when known. */
  readonly hookName?: string;
  /** The event it concerns (`PreToolUse`, `toolCall`, …). */
  readonly event?: string;
}

/**
 * Run-scoped context supplied to hooks.
 *
 * `modelCall` is the one-based model-call index and changes during the run; everything else is
 * fixed for the run. (A turn is a prompt's turn: the model calls and tool steps one prompt starts.) `report` is how a hook (or the command-hook adapter) surfaces a `systemMessage` or
 * a warning to the user without stopping anything.
 */
export interface HookContext {
  readonly runId: string;
  /** One-based model-call index within the run; 0 before the first model call. */
  readonly modelCall: number;
  /**
   * @deprecated The same number as `modelCall` (a model-call index, not a prompt's turn), kept
   * for hooks written against the first release; use `modelCall`.
   */
  readonly turn: number;
  /** True when the streaming surface drives this run. */
  readonly isStreaming: boolean;
  readonly agentName: string | undefined;
  /** Fires when the run is cancelled; long-running hooks must stop when it does. */
  readonly signal: AbortSignal;
  readonly session: SessionInfo;
  /**
   * The subagent this run is, when it is one (a child loop of the `agent` tool): its id and agent
   * type. Command hooks receive them as `agent_id`/`agent_type`. Absent in the main loop.
   */
  readonly agent?: SubagentIdentity | undefined;
  readonly scratchpad: Scratchpad;
  report(report: HookReport): void;
  /**
   * Records one hook's run (its kind, decision, timing and, bounded, its payload and answer) for
   * the transcript and the tracer: the one seam every hook kind reports through. The external
   * kinds (command, process, HTTP, prompt hooks) report once per run from the group runner
   * (`hook-kinds/group/run-hook-group.ts`); in-process hooks are timed and reported by the
   * `HookStack` that calls them. The loop routes each run under what it guarded. Absent on contexts made outside a run, where nothing is recorded.
   */
  recordHookRun?(run: ObservedHookRun): void;
  /**
   * True when `recordHookRun` keeps what it gets: a `HookStack` then times each in-process member
   * it calls and records the run itself (kind `in-process`). Absent: false.
   */
  readonly recordsHookRuns?: boolean;
}
