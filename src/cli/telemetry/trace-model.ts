/**
 * The timeline `hookwire trace` draws, built from a transcript: the session's turns, its steps
 * (one per model call, holding that call's tool calls and every hook run recorded at that point),
 * and the denials and failures to find first. Times are milliseconds since the session started.
 * The hook runs of the session's subagents (their own transcripts) are placed in the step of the
 * `agent` call that ran them, each labelled with the subagent's id and type.
 */
import type { HookRunDecision, ObservedHookRun } from '../../hooks/index.ts';
import type { TranscriptRecord } from '../../loop/index.ts';
import { allAgents, type ReadAgentTranscript } from './read-sessions.ts';

/** One hook run, placed in its step. `index` is its position in the transcript's hook runs. */
export interface TraceHookRun extends ObservedHookRun {
  readonly index: number;
  readonly turn: number;
  readonly modelCall: number;
  readonly start: number;
  readonly end: number;
  /** A failure to answer (failed-closed included), else a denial or a stop: listed among the problems. */
  readonly problem: 'denial' | 'stop' | 'failure' | undefined;
  /** The subagent it ran in (`agent_id`, `agent_type`); absent: the main agent. */
  readonly agentId?: string;
  readonly agentType?: string;
  /** The main agent's `agent` tool call the subagent ran under (its step holds the run). */
  readonly agentToolCallId?: string;
}

export interface TraceModelCall {
  readonly start: number;
  readonly end: number;
  readonly model?: string;
  readonly provider?: string;
  readonly status: string;
  readonly finishReason?: string;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly reason?: string;
}

export interface TraceToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly status: string;
  readonly error?: string;
  readonly start: number;
  readonly end: number;
}

/**
 * One step: a model call and what ran around it (`modelCall` 0 is the part of a turn before its
 * first model call; turn 0 is the session outside any turn: SessionStart, SessionEnd).
 */
export interface TraceStep {
  readonly turn: number;
  readonly modelCall: number;
  readonly start: number;
  readonly end: number;
  readonly call?: TraceModelCall;
  readonly toolCalls: readonly TraceToolCall[];
  readonly hookRuns: readonly TraceHookRun[];
}

export interface TraceTurn {
  readonly number: number;
  readonly prompt: string;
  readonly start: number;
  readonly end: number;
  readonly status?: string;
  readonly reason?: string;
}

export interface TraceModel {
  readonly sessionId: string;
  readonly cwd?: string;
  readonly version?: number;
  /** When the session started, ms since the epoch (the zero of every other time). */
  readonly origin: number;
  readonly duration: number;
  readonly turns: readonly TraceTurn[];
  readonly steps: readonly TraceStep[];
  readonly hookRunCount: number;
  readonly decisions: Readonly<Record<HookRunDecision, number>>;
  readonly problems: readonly TraceHookRun[];
  /** Warnings hooks raised (the transcript's `hook-report` records of level warning). */
  readonly warnings: readonly string[];
}

// A failure first: a hook that failed closed denied, but that it failed is what to fix.
function problemOf(run: ObservedHookRun): TraceHookRun['problem'] {
  if (run.status !== 'ok' && run.status !== 'blocked') return 'failure';
  if (run.decision === 'deny') return 'denial';
  if (run.decision === 'stop') return 'stop';
  return undefined;
}

interface StepDraft {
  readonly turn: number;
  readonly modelCall: number;
  start: number;
  end: number;
  call?: TraceModelCall;
  readonly toolCalls: TraceToolCall[];
  readonly hookRuns: TraceHookRun[];
}

/**
 * Builds the timeline of one session's records (any transcript version; v1 has no steps), with
 * the hook runs of its subagents' transcripts `agents`.
 */
export function traceModel(
  sessionId: string,
  records: readonly TranscriptRecord[],
  agents: readonly ReadAgentTranscript[] = [],
): TraceModel {
  const times = records.map((record) => Date.parse(record.time)).filter(Number.isFinite);
  const origin = times.length === 0 ? 0 : Math.min(...times);
  const at = (time: string): number => Date.parse(time) - origin;
  const steps = new Map<string, StepDraft>();
  const stepOf = (turn: number, modelCall: number, start: number, end: number): StepDraft => {
    const key = `${turn}:${modelCall}`;
    let step = steps.get(key);
    if (step === undefined) {
      step = { turn, modelCall, start, end, toolCalls: [], hookRuns: [] };
      steps.set(key, step);
    }
    step.start = Math.min(step.start, start);
    step.end = Math.max(step.end, end);
    return step;
  };
  const turns = new Map<
    number,
    { number: number; prompt: string; start: number; end: number; status?: string; reason?: string }
  >();
  const warnings: string[] = [];
  const decisions: Record<HookRunDecision, number> = {
    allow: 0,
    deny: 0,
    stop: 0,
    rewrite: 0,
    context: 0,
  };
  const problems: TraceHookRun[] = [];
  let sessionStart: { cwd: string; version: number } | undefined;
  let end = 0;
  let hookRunCount = 0;
  // Where each tool call ran (its step), and the last model call of each turn: for subagents.
  const toolCallSteps = new Map<string, { turn: number; modelCall: number }>();
  const lastModelCall = new Map<number, number>();

  const placeHookRun = (
    record: TranscriptRecord & { type: 'hook-run' },
    at: { turn: number; modelCall: number },
    agent?: { agentId: string; agentType: string; agentToolCallId: string },
  ): void => {
    const run = record.run;
    const start = run.startTime - origin;
    const finish = start + run.durationMs;
    const placed: TraceHookRun = {
      ...run,
      index: hookRunCount++,
      turn: at.turn,
      modelCall: at.modelCall,
      start,
      end: finish,
      problem: problemOf(run),
      ...agent,
    };
    stepOf(at.turn, at.modelCall, start, finish).hookRuns.push(placed);
    decisions[run.decision] += 1;
    if (placed.problem !== undefined) problems.push(placed);
    end = Math.max(end, finish);
  };

  for (const record of records) {
    const time = at(record.time);
    if (Number.isFinite(time)) end = Math.max(end, time);
    switch (record.type) {
      case 'session-start':
        sessionStart ??= { cwd: record.cwd, version: record.version };
        break;
      case 'turn-start':
        turns.set(record.turn, {
          number: record.turn,
          prompt: record.prompt,
          start: time,
          end: time,
        });
        break;
      case 'turn-end': {
        const turn = turns.get(record.turn);
        if (turn !== undefined) {
          turn.end = time;
          turn.status = record.status;
          if (record.reason !== undefined) turn.reason = record.reason;
        }
        break;
      }
      case 'hook-report':
        if (record.report.level === 'warning') warnings.push(record.report.text);
        break;
      case 'model-call': {
        lastModelCall.set(record.turn, record.modelCall);
        const step = stepOf(record.turn, record.modelCall, time, time + record.durationMs);
        step.call = {
          start: time,
          end: time + record.durationMs,
          status: record.status,
          ...(record.model === undefined ? {} : { model: record.model }),
          ...(record.provider === undefined ? {} : { provider: record.provider }),
          ...(record.finishReason === undefined ? {} : { finishReason: record.finishReason }),
          ...(record.usage?.promptTokens === undefined
            ? {}
            : { inputTokens: record.usage.promptTokens }),
          ...(record.usage?.completionTokens === undefined
            ? {}
            : { outputTokens: record.usage.completionTokens }),
          ...(record.reason === undefined ? {} : { reason: record.reason }),
        };
        end = Math.max(end, time + record.durationMs);
        break;
      }
      case 'tool-call': {
        toolCallSteps.set(record.toolCallId, { turn: record.turn, modelCall: record.modelCall });
        const step = stepOf(record.turn, record.modelCall, time, time + record.durationMs);
        step.toolCalls.push({
          toolCallId: record.toolCallId,
          toolName: record.toolName,
          status: record.status,
          ...(record.error === undefined ? {} : { error: record.error }),
          start: time,
          end: time + record.durationMs,
        });
        end = Math.max(end, time + record.durationMs);
        break;
      }
      case 'hook-run':
        placeHookRun(record, record);
        break;
      default:
        break;
    }
  }
  // Each subagent's runs (and its own subagents') go to the step of the call that started it.
  for (const top of agents) {
    const at = toolCallSteps.get(top.toolCallId) ?? {
      turn: top.turn,
      modelCall: lastModelCall.get(top.turn) ?? 0,
    };
    for (const agent of [top, ...allAgents(top.agents)])
      for (const record of agent.records)
        if (record.type === 'hook-run')
          placeHookRun(record, at, {
            agentId: agent.agentId,
            agentType: agent.agentType,
            agentToolCallId: top.toolCallId,
          });
  }
  const ordered = [...steps.values()]
    .map((step): TraceStep => ({
      ...step,
      toolCalls: [...step.toolCalls].sort((a, b) => a.start - b.start),
      hookRuns: [...step.hookRuns].sort((a, b) => a.start - b.start || a.index - b.index),
    }))
    // Session-level hooks (turn 0) sit where they ran: SessionStart first, SessionEnd last.
    .sort((a, b) => a.start - b.start || a.turn - b.turn || a.modelCall - b.modelCall);
  return {
    sessionId,
    ...(sessionStart === undefined ? {} : { cwd: sessionStart.cwd, version: sessionStart.version }),
    origin,
    duration: end,
    turns: [...turns.values()].sort((a, b) => a.number - b.number),
    steps: ordered,
    hookRunCount,
    decisions,
    problems,
    warnings,
  };
}
