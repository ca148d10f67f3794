/**
 * One tool call of a step, in the lifecycle's order (src/lifecycle/tool-call.ts): PreToolUse and
 * the permission check (`beforeToolCall`), the tool, then PostToolUse (`afterToolCall`) or
 * PostToolUseFailure (`toolFailed`). This file applies the decisions to the loop's shapes: the
 * response block, the transcript records, the call's span. A tool that throws becomes a
 * `tool_response` with `error`; it never fails the run.
 */
import type { ToolCallBlock, ToolResponseBlock } from '../content/index.ts';
import { jsonEncodingProblem } from '../content/json-encodable.ts';
import {
  afterToolCall,
  beforeToolCall,
  isPromiseLike,
  toolFailed,
  type ToolCallFacts,
  type ToolPermissions,
} from '../lifecycle/index.ts';
import type { Plan } from './invalid-calls.ts';
import { CancelledError } from './loop-error.ts';
import type { RunState } from './run-state.ts';
import { endToolCallSpan, startToolCallSpan, type ToolCallStatus } from './run-telemetry.ts';
import { isSubagentTool, runSubagent } from './subagent.ts';
import { isoTime } from './timestamp.ts';
import type { LoopSpan } from './tracer.ts';

/** What one call left for the step's tool message. */
export interface CallOutcome {
  readonly block: ToolResponseBlock;
  readonly args: unknown;
  readonly skipped: boolean;
  readonly additionalContext: string | undefined;
  readonly stop: string | undefined;
}

/**
 * Runs one call (`executeCallBody`) and records it: a `tool-call` transcript record and, with a
 * tracer, its `execute_tool` span, open from its PreToolUse hooks to its PostToolUse hooks.
 */
export async function executeCall(run: RunState, plan: Plan): Promise<CallOutcome> {
  const startTime = Date.now();
  const { id, name } = plan.call;
  const tracer = run.config.tracer;
  let span: LoopSpan | undefined;
  if (tracer !== undefined) {
    span = startToolCallSpan(tracer, run.turnSpan ?? run.session.span, name, id);
    run.toolSpans.set(id, span);
  }
  let status: ToolCallStatus = 'error';
  let error: string | undefined;
  try {
    const outcome = await executeCallBody(run, plan);
    error = outcome.block.error;
    status = outcome.skipped ? 'skipped' : error === undefined ? 'ok' : 'error';
    return outcome;
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message : String(thrown);
    throw thrown;
  } finally {
    run.record({
      type: 'tool-call',
      turn: run.currentTurn,
      modelCall: run.budget.used,
      toolCallId: id,
      toolName: name,
      status,
      error,
      durationMs: Date.now() - startTime,
      time: isoTime(startTime),
    });
    if (span !== undefined) {
      run.toolSpans.delete(id);
      endToolCallSpan(span, status, error);
    }
  }
}

/** The lifecycle's facts of a call: its name, id, arguments, and an MCP tool's context. */
function factsOf(run: RunState, call: ToolCallBlock, args: unknown): ToolCallFacts {
  const mcpContext = run.config.tools?.get(call.name)?.mcpContext;
  return mcpContext === undefined
    ? { toolName: call.name, toolCallId: call.id, args }
    : { toolName: call.name, toolCallId: call.id, args, mcpContext };
}

/** The permission check of a call in `run` (`undefined` without a permission layer). */
function permissionsOf(run: RunState, call: ToolCallBlock): ToolPermissions | undefined {
  const permissions = run.config.permissions;
  const approver = run.config.approver;
  if (permissions === undefined && approver === undefined) return undefined;
  const registry = run.config.tools;
  return {
    permissions,
    cwd: run.session.info.cwd,
    ...(approver === undefined ? {} : { approver }),
    signal: run.signal,
    ...(run.child === undefined ? {} : { agentName: run.child.agent.type }),
    validate: (candidate) => {
      const validation = registry?.validate(call.name, candidate);
      return validation === undefined || validation.ok ? undefined : validation.errors;
    },
  };
}

function errorBlock(call: ToolCallBlock, error: string): ToolResponseBlock {
  return { type: 'tool_response', callId: call.id, toolName: call.name, result: null, error };
}

async function executeCallBody(run: RunState, plan: Plan): Promise<CallOutcome> {
  const call = plan.call;
  if (plan.kind === 'skip') {
    // An invalid call (or one a retry or stop left unrun): no PreToolUse, no PostToolUse.
    run.emit({ type: 'tool-call', toolCallId: call.id, toolName: call.name, args: plan.args });
    return {
      block: errorBlock(call, plan.reason),
      args: plan.args,
      skipped: true,
      additionalContext: undefined,
      stop: undefined,
    };
  }
  const facts = factsOf(run, call, plan.args);
  const decided = beforeToolCall(run, facts, permissionsOf(run, call));
  const decision = isPromiseLike(decided) ? await decided : decided;
  const args = decision.args;
  run.emit({ type: 'tool-call', toolCallId: call.id, toolName: call.name, args });
  if (decision.kind === 'skip') {
    const block = errorBlock(call, decision.reason);
    // A hook-skipped or refused call still reaches PostToolUse (`skipped: true`); a stop does not.
    if (decision.stop === undefined) return afterTool(run, facts, args, block, true, undefined);
    return { block, args, skipped: true, additionalContext: undefined, stop: decision.stop };
  }
  if (decision.kind === 'supply') {
    // A hook supplied the result: the tool does not run; PostToolUse reviews the supplied result
    // as that of a call that ran.
    const problem = jsonEncodingProblem(decision.result);
    const block: ToolResponseBlock =
      problem === undefined
        ? { type: 'tool_response', callId: call.id, toolName: call.name, result: decision.result }
        : errorBlock(
            call,
            `a PreToolUse hook supplied a result JSON cannot encode for tool "${call.name}" (${problem.path}: ${problem.reason}); the tool was not run`,
          );
    return afterTool(run, facts, args, block, false, undefined);
  }

  let result: unknown = null;
  let error: string | undefined;
  let stop: string | undefined;
  const tool = run.config.tools?.get(call.name);
  try {
    if (tool === undefined) throw new Error(`tool "${call.name}" is not registered`);
    if (isSubagentTool(tool)) {
      // The `agent` tool runs a child loop through this run's hooks (see subagent.ts).
      const outcome = await runSubagent(run, call.id, args);
      result = outcome.result;
      if (outcome.stop !== undefined) stop = outcome.stop;
    } else {
      const steps = run.config.stepRunner;
      const context = { signal: run.signal, cwd: run.session.info.cwd, toolCallId: call.id };
      result = await run.settle(
        steps === undefined
          ? tool.execute(args, context)
          : steps.runTool(
              { turn: run.currentTurn, toolName: call.name, toolCallId: call.id },
              async () => tool.execute(args, context),
            ),
      );
    }
  } catch (thrown) {
    if (thrown instanceof CancelledError || run.signal.aborted)
      throw new CancelledError(run.cancelReason());
    error = thrown instanceof Error ? thrown.message || thrown.name : String(thrown);
  }
  // A result JSON cannot encode would fail every later request that carries the history (each
  // adapter encodes it), so it never enters it: the call fails, saying where and why.
  if (error === undefined) {
    const problem = jsonEncodingProblem(result);
    if (problem !== undefined) {
      result = null;
      error = `tool "${call.name}" returned a result JSON cannot encode (${problem.path}: ${problem.reason}); a tool's result must be JSON (strings, numbers, booleans, null, arrays and plain objects)`;
    }
  }
  // The tool's own outcome is on record before the PostToolUse hooks see it (they may take a
  // while); the reviewed result follows. Without such hooks the reviewed record comes at once.
  const reviewing = error === undefined ? run.observed.toolResult : run.observed.toolFailure;
  if (reviewing) {
    run.record({
      type: 'tool-result',
      turn: run.currentTurn,
      response:
        error === undefined
          ? { type: 'tool_response', callId: call.id, toolName: call.name, result }
          : errorBlock(call, error),
      reviewed: false,
      time: isoTime(),
    });
    run.session.transcript.commit();
  }

  if (error !== undefined) {
    const block = errorBlock(call, error);
    const failed = toolFailed(run, { ...facts, args, error });
    const failure = failed && (await failed);
    return {
      block,
      args,
      skipped: false,
      additionalContext: failure?.additionalContext,
      stop: stop ?? failure?.stop,
    };
  }
  const block: ToolResponseBlock = {
    type: 'tool_response',
    callId: call.id,
    toolName: call.name,
    result,
  };
  return afterTool(run, facts, args, block, false, stop);
}

/** PostToolUse: with no hook observing it, the outcome at once (no promise). */
function afterTool(
  run: RunState,
  facts: ToolCallFacts,
  args: unknown,
  block: ToolResponseBlock,
  skipped: boolean,
  stop: string | undefined,
): CallOutcome | Promise<CallOutcome> {
  const decided = afterToolCall(run, {
    ...facts,
    args,
    result: block.result,
    error: block.error,
    skipped,
  });
  if (decided === undefined) return { block, args, skipped, additionalContext: undefined, stop };
  return decided.then((decision) => ({
    block: decision.rewritten ? { ...block, result: decision.presentation } : block,
    args,
    skipped,
    additionalContext: decision.stop === undefined ? decision.additionalContext : undefined,
    stop: stop ?? decision.stop,
  }));
}
