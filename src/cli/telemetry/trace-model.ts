/**
 * The timeline `hookwire trace` draws, built from a transcript: the session's turns, its steps
 * (one per model call, holding that call's tool calls and every hook run recorded at that point),
 * and the denials and failures to find first. Times are milliseconds since the session started.
 * The hook runs of the session's subagents (their own transcripts) are placed in the step of the
 * `agent` call that ran them, each labelled with the subagent's id and type; the subagent's own
 * model calls and tool calls hang under that `agent` call (`TraceToolCall.subagent`).
 *
 * What the model said and what the tools were given and returned come from the transcript's
 * `message` records — the conversation as the model saw it, after every hook's rewrite (the
 * `tool-result` records a PostToolUse hook reviewed are not read: what a hook removed stays out
 * of the page) — each cut to `TRACE_TEXT_LIMIT` characters.
 */
import type { Message } from '../../content/index.ts';
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
  /**
   * A Stop (or SubagentStop) hook's block: the turn went on with its reason as the next prompt.
   * Drawn as a continuation, not as a denial, and not counted among the denials.
   */
  readonly continuation: boolean;
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
  /** The text of the answer (bounded), when the model answered with text. */
  readonly text?: string;
}

export interface TraceToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly status: string;
  readonly error?: string;
  readonly start: number;
  readonly end: number;
  /** The arguments the call ran with, as JSON (bounded). */
  readonly args?: string;
  /** What the model was shown as the result, as JSON or text (bounded). */
  readonly result?: string;
  /** An `agent` call: the subagent it ran, with its own model calls and tool calls. */
  readonly subagent?: TraceSubagent;
}

/** A subagent's calls, under the `agent` call that ran it. */
export interface TraceSubagent {
  readonly agentId: string;
  readonly agentType: string;
  readonly modelCalls: readonly TraceModelCall[];
  readonly toolCalls: readonly TraceToolCall[];
}

/** A tool call that failed (status `error`), main agent's or a subagent's. */
export interface TraceToolError {
  readonly turn: number;
  readonly modelCall: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly error: string;
  /** The subagent whose call it was; absent: the main agent. */
  readonly agentType?: string;
}

/** The most characters of a text, an argument list or a result the page shows. */
export const TRACE_TEXT_LIMIT = 2000;

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
  /** Model calls and tool calls of the session, its subagents' included. */
  readonly modelCallCount: number;
  readonly toolCallCount: number;
  /** Hook runs by decision; a Stop block counts as a continuation, not as a `deny`. */
  readonly decisions: Readonly<Record<HookRunDecision, number>>;
  /** Stop blocks that continued a turn. */
  readonly continuations: number;
  readonly problems: readonly TraceHookRun[];
  /** Tool calls that failed: failures beside the hooks' (`problems`). */
  readonly toolErrors: readonly TraceToolError[];
  /** Warnings hooks raised (the transcript's `hook-report` records of level warning). */
  readonly warnings: readonly string[];
}

/** The events whose block continues the turn (registered names, aliases, in-process kinds). */
const STOP_EVENTS: ReadonlySet<string> = new Set([
  'Stop',
  'AfterAgent',
  'SubagentStop',
  'stop',
  'subagentStop',
]);

function isContinuation(run: ObservedHookRun): boolean {
  return run.decision === 'deny' && run.status === 'blocked' && STOP_EVENTS.has(run.event);
}

// A failure first: a hook that failed closed denied, but that it failed is what to fix.
function problemOf(run: ObservedHookRun): TraceHookRun['problem'] {
  if (run.status !== 'ok' && run.status !== 'blocked') return 'failure';
  if (isContinuation(run)) return undefined;
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

/** `text` cut to `TRACE_TEXT_LIMIT` characters, with a note saying how long it was. */
function bounded(text: string): string {
  return text.length <= TRACE_TEXT_LIMIT
    ? text
    : `${text.slice(0, TRACE_TEXT_LIMIT)}… [${text.length - TRACE_TEXT_LIMIT} more characters]`;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return bounded(value);
  try {
    // `undefined` (no result) stringifies to undefined, whatever the declared type says.
    return value === undefined ? 'undefined' : bounded(JSON.stringify(value));
  } catch {
    return bounded(String(value));
  }
}

/** What the conversation says of each call: the model's texts per turn, arguments, results. */
interface Contents {
  readonly texts: Map<number, string[]>;
  readonly args: Map<string, string>;
  readonly results: Map<string, { readonly result: string; readonly error?: string }>;
}

function contentsOf(records: readonly TranscriptRecord[]): Contents {
  const contents: Contents = { texts: new Map(), args: new Map(), results: new Map() };
  for (const record of records) {
    if (record.type !== 'message') continue;
    const message: Message = record.message;
    if (message.speaker === 'ai') {
      const text = message.blocks
        .flatMap((block) => (block.type === 'text' ? [block.text] : []))
        .join('');
      const texts = contents.texts.get(record.turn) ?? [];
      texts.push(text);
      contents.texts.set(record.turn, texts);
    }
    for (const block of message.blocks) {
      if (block.type === 'tool_call') contents.args.set(block.id, shown(block.parameters));
      if (block.type === 'tool_response')
        contents.results.set(block.callId, {
          result: shown(block.result),
          ...(block.error === undefined ? {} : { error: bounded(block.error) }),
        });
    }
  }
  return contents;
}

/** Model calls that leave an answer in the conversation (one AI message each, in order). */
const ANSWERING = new Set(['answered', 'synthetic']);

/**
 * Gives each answering model call its answer's text: the turn's AI messages in order, matched to
 * the turn's answering calls in order.
 */
interface CallEntry {
  readonly turn: number;
  readonly modelCall: number;
  call?: TraceModelCall;
}

function withTexts(calls: readonly CallEntry[], contents: Contents): void {
  const byTurn = new Map<number, CallEntry[]>();
  for (const entry of calls) {
    if (entry.call === undefined || !ANSWERING.has(entry.call.status)) continue;
    const list = byTurn.get(entry.turn) ?? [];
    list.push(entry);
    byTurn.set(entry.turn, list);
  }
  for (const [turn, list] of byTurn) {
    const texts = contents.texts.get(turn) ?? [];
    list
      .sort((a, b) => a.modelCall - b.modelCall)
      .forEach((entry, position) => {
        const text = texts[position];
        if (entry.call !== undefined && text !== undefined && text !== '')
          entry.call = { ...entry.call, text: bounded(text) };
      });
  }
}

function modelCallOf(
  record: TranscriptRecord & { type: 'model-call' },
  time: number,
): TraceModelCall {
  return {
    start: time,
    end: time + record.durationMs,
    status: record.status,
    ...(record.model === undefined ? {} : { model: record.model }),
    ...(record.provider === undefined ? {} : { provider: record.provider }),
    ...(record.finishReason === undefined ? {} : { finishReason: record.finishReason }),
    ...(record.usage?.promptTokens === undefined ? {} : { inputTokens: record.usage.promptTokens }),
    ...(record.usage?.completionTokens === undefined
      ? {}
      : { outputTokens: record.usage.completionTokens }),
    ...(record.reason === undefined ? {} : { reason: record.reason }),
  };
}

function toolCallOf(
  record: TranscriptRecord & { type: 'tool-call' },
  time: number,
  contents: Contents,
): TraceToolCall {
  const args = contents.args.get(record.toolCallId);
  const result = contents.results.get(record.toolCallId);
  return {
    toolCallId: record.toolCallId,
    toolName: record.toolName,
    status: record.status,
    ...(record.error === undefined ? {} : { error: record.error }),
    start: time,
    end: time + record.durationMs,
    ...(args === undefined ? {} : { args }),
    ...(result === undefined ? {} : { result: result.error ?? result.result }),
  };
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
  let continuations = 0;
  let modelCallCount = 0;
  let toolCallCount = 0;
  const toolErrors: TraceToolError[] = [];
  const contents = contentsOf(records);
  const toolCalls = new Map<string, TraceToolCall>();
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
      continuation: isContinuation(run),
      ...agent,
    };
    stepOf(at.turn, at.modelCall, start, finish).hookRuns.push(placed);
    if (placed.continuation) continuations += 1;
    else decisions[run.decision] += 1;
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
        modelCallCount += 1;
        const step = stepOf(record.turn, record.modelCall, time, time + record.durationMs);
        step.call = modelCallOf(record, time);
        end = Math.max(end, time + record.durationMs);
        break;
      }
      case 'tool-call': {
        toolCallSteps.set(record.toolCallId, { turn: record.turn, modelCall: record.modelCall });
        toolCallCount += 1;
        const step = stepOf(record.turn, record.modelCall, time, time + record.durationMs);
        const call = toolCallOf(record, time, contents);
        toolCalls.set(record.toolCallId, call);
        step.toolCalls.push(call);
        if (record.status === 'error')
          toolErrors.push({
            turn: record.turn,
            modelCall: record.modelCall,
            toolCallId: record.toolCallId,
            toolName: record.toolName,
            error: record.error ?? 'failed',
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
  // A subagent's model and tool calls hang under the `agent` call that ran it (its own
  // subagents under its `agent` calls, and so on down).
  const subagentOf = (agent: ReadAgentTranscript): TraceSubagent => {
    const own = contentsOf(agent.records);
    const modelCalls: { turn: number; modelCall: number; call?: TraceModelCall }[] = [];
    const calls: TraceToolCall[] = [];
    for (const record of agent.records) {
      const time = at(record.time);
      if (record.type === 'model-call') {
        modelCallCount += 1;
        modelCalls.push({
          turn: record.turn,
          modelCall: record.modelCall,
          call: modelCallOf(record, time),
        });
      } else if (record.type === 'tool-call') {
        toolCallCount += 1;
        const child = agent.agents.find((nested) => nested.toolCallId === record.toolCallId);
        const call = toolCallOf(record, time, own);
        calls.push(child === undefined ? call : { ...call, subagent: subagentOf(child) });
        if (record.status === 'error') {
          const placed = toolCallSteps.get(agent.toolCallId);
          toolErrors.push({
            turn: placed?.turn ?? agent.turn,
            modelCall: placed?.modelCall ?? 0,
            toolCallId: record.toolCallId,
            toolName: record.toolName,
            error: record.error ?? 'failed',
            agentType: agent.agentType,
          });
        }
      }
    }
    withTexts(modelCalls, own);
    return {
      agentId: agent.agentId,
      agentType: agent.agentType,
      modelCalls: modelCalls.flatMap((entry) => (entry.call === undefined ? [] : [entry.call])),
      toolCalls: calls,
    };
  };
  for (const top of agents) {
    const call = toolCalls.get(top.toolCallId);
    if (call === undefined) continue;
    const withSubagent: TraceToolCall = { ...call, subagent: subagentOf(top) };
    for (const step of steps.values()) {
      const index = step.toolCalls.indexOf(call);
      if (index !== -1) step.toolCalls[index] = withSubagent;
    }
  }
  withTexts([...steps.values()], contents);
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
    modelCallCount,
    toolCallCount,
    decisions,
    continuations,
    problems,
    toolErrors,
    warnings,
  };
}
