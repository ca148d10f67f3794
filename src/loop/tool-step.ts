/**
 * The tool half of a step: validate the calls of an accepted answer, resolve invalid ones through
 * `onInvalidToolCall` (by default an invalid call is answered with its error, within the turn's
 * `invalidToolCallsPerTurn` budget, so the model can correct itself), then run the valid calls **concurrently**, each through PreToolUse
 * (`toolCall`: rewrite / skip / stop), the tool, and PostToolUse (`toolResult`: rewrite what the
 * model sees / add context / stop) or PostToolUseFailure (`toolFailure`). The tool message holds
 * the results **in call order**, whatever order the tools finished in. A tool that throws becomes
 * a `tool_response` with `error`; it never fails the run.
 */
import type {
  ContentBlock,
  Message,
  ModelRequest,
  ToolCallBlock,
  ToolDeclaration,
  ToolResponseBlock,
} from '../content/index.ts';
import { jsonEncodingProblem } from '../content/json-encodable.ts';
import {
  InvalidToolCallAction,
  toolCallResolution,
  type InvalidToolCallReason,
  type McpContext,
  type ToolCallAsk,
  type ToolCallEvent,
} from '../events/index.ts';
import { CancelledError, LoopError } from './loop-error.ts';
import type { RunState, TurnEnd, TurnState } from './run-state.ts';
import { endToolCallSpan, startToolCallSpan, type ToolCallStatus } from './run-telemetry.ts';
import type { LoopSpan } from './tracer.ts';
import { ToolRegistry } from './tool-registry.ts';
import { checkPermission, type AgentPermissions } from './permission-step.ts';
import { isSubagentTool, runSubagent } from './subagent.ts';
import { isoTime } from './timestamp.ts';

type Plan =
  | { readonly kind: 'run'; readonly call: ToolCallBlock; readonly args: unknown }
  | {
      readonly kind: 'skip';
      readonly call: ToolCallBlock;
      readonly args: unknown;
      readonly reason: string;
    };

interface CallOutcome {
  readonly block: ToolResponseBlock;
  readonly args: unknown;
  readonly skipped: boolean;
  readonly additionalContext: string | undefined;
  readonly stop: string | undefined;
}

interface Diagnosis {
  readonly reason: InvalidToolCallReason;
  readonly detail: string;
  readonly args: unknown;
}

/**
 * Runs the tool calls of `message` (an accepted answer), appends the answer and the tool message
 * to the history, and returns how the turn ends, or `undefined` to go on to the next model call.
 */
export async function runToolStep(
  run: RunState,
  turn: TurnState,
  message: Message,
  request: ModelRequest,
  toolCalls: readonly ToolCallBlock[],
): Promise<TurnEnd | undefined> {
  const registry = run.config.tools;
  const offered = offeredNames(request.tools);

  const plans: Plan[] = [];
  let blocks: ContentBlock[] | undefined;
  let retryFeedback: string | undefined;
  let stopReason: string | undefined;
  for (const original of toolCalls) {
    let call = original;
    let repaired = false;
    for (;;) {
      const diagnosis = diagnose(call, registry, offered);
      if (!('reason' in diagnosis)) {
        plans.push({ kind: 'run', call, args: diagnosis.args });
        break;
      }
      const invalid = call;
      // No decision is reported as what it means: fail fast.
      const action: InvalidToolCallAction | undefined = await run.fire(
        'invalidToolCall',
        () => ({
          reason: diagnosis.reason,
          detail: diagnosis.detail,
          toolName: invalid.name,
          toolCallId: invalid.id,
          args: diagnosis.args,
          availableTools: registry?.names() ?? [],
          allowedTools: [...offered],
          toolChoice: request.settings?.toolChoice,
        }),
        (decided) => decided ?? InvalidToolCallAction.fail(),
      );
      if (action === undefined) {
        // No hook decided: answer the call with its error so the model can correct itself, as
        // long as the turn's budget lasts (then fail as an explicit `fail` does).
        const budget = run.config.invalidToolCallsPerTurn;
        if (turn.invalidToolCalls < budget) {
          turn.invalidToolCalls++;
          run.report({
            level: 'warning',
            text: `the model made an invalid tool call (${diagnosis.reason}, call ${call.id}): ${diagnosis.detail}; the error went back to the model as the tool's result (${turn.invalidToolCalls} of ${budget} this turn, invalidToolCallsPerTurn)`,
            event: 'invalidToolCall',
          });
          plans.push({
            kind: 'skip',
            call,
            args: diagnosis.args,
            reason: `Invalid tool call (${diagnosis.reason}): ${diagnosis.detail}. Correct the call and try again.`,
          });
          break;
        }
        const spent =
          budget === 0
            ? 'invalidToolCallsPerTurn is 0'
            : `this turn already answered ${budget} invalid tool call(s) with their error (invalidToolCallsPerTurn: ${budget})`;
        return invalidCallFailure(
          diagnosis,
          '',
          `No hook resolved it, and ${spent}: raise invalidToolCallsPerTurn (hookwire run --max-invalid-tool-calls), or return retry, repair, skip or stop from onInvalidToolCall.`,
        );
      }
      if (action.kind === 'fail' || (action.kind === 'repair' && repaired)) {
        const how = action.kind === 'repair' ? ' and its repair was invalid too' : '';
        return invalidCallFailure(
          diagnosis,
          how,
          action.kind === 'fail'
            ? 'An onInvalidToolCall hook failed the run.'
            : 'An onInvalidToolCall hook repaired it to another invalid call.',
        );
      }
      if (action.kind === 'repair') {
        repaired = true;
        call = { ...call, name: action.toolName };
        blocks ??= [...message.blocks];
        const position = blocks.indexOf(original);
        if (position >= 0) blocks[position] = call;
        continue;
      }
      if (action.kind === 'retry') {
        retryFeedback ??= action.feedback;
        plans.push({ kind: 'skip', call, args: diagnosis.args, reason: action.feedback });
      } else if (action.kind === 'skip') {
        plans.push({ kind: 'skip', call, args: diagnosis.args, reason: action.reason });
      } else {
        stopReason ??= action.reason;
        plans.push({
          kind: 'skip',
          call,
          args: diagnosis.args,
          reason: `the run was stopped: ${action.reason}`,
        });
      }
      break;
    }
  }

  writeAhead(run, blocks === undefined ? message : { ...message, blocks });

  // A retry or a stop runs none of the step's calls; every call is still answered, so the
  // history never holds an unanswered tool call.
  if (retryFeedback !== undefined || stopReason !== undefined) {
    const note =
      stopReason !== undefined
        ? `not run: the run was stopped: ${stopReason}`
        : `not run: another tool call of this step was invalid: ${retryFeedback ?? ''}`;
    for (let index = 0; index < plans.length; index++) {
      const plan = plans[index] as Plan;
      if (plan.kind === 'run')
        plans[index] = { kind: 'skip', call: plan.call, args: plan.args, reason: note };
    }
  }

  const settled = await settleCalls(run, plans);
  const failure = settled.find((entry) => entry.status === 'rejected');
  if (failure !== undefined) {
    // Cancelled, or a hook threw: the calls still get their results in the history (those that
    // finished, and a note for the others), so the session stays valid for the next run.
    const reason: unknown = failure.reason;
    const note = `not completed: ${reason instanceof CancelledError || run.signal.aborted ? `the run was cancelled (${run.cancelReason()})` : `the step failed (${reason instanceof Error ? reason.message : String(reason)})`}; the tool may or may not have run`;
    run.appendMessage({
      speaker: 'tool',
      blocks: settled.map((entry, index) => {
        if (entry.status === 'fulfilled') return entry.value.block;
        const call = (plans[index] as Plan).call;
        return {
          type: 'tool_response',
          callId: call.id,
          toolName: call.name,
          result: null,
          error: note,
        };
      }),
    });
    run.session.transcript.commit();
    throw reason instanceof Error ? reason : new Error(String(reason));
  }
  const outcomes = settled.map((entry) => (entry as PromiseFulfilledResult<CallOutcome>).value);

  const responseBlocks: ContentBlock[] = [];
  let additional: string[] | undefined;
  for (const outcome of outcomes) {
    responseBlocks.push(outcome.block);
    if (outcome.additionalContext !== undefined)
      (additional ??= []).push(outcome.additionalContext);
    if (outcome.stop !== undefined) stopReason ??= outcome.stop;
    run.emit(
      outcome.block.error === undefined
        ? {
            type: 'tool-result',
            toolCallId: outcome.block.callId,
            toolName: outcome.block.toolName,
            result: outcome.block.result,
            skipped: outcome.skipped,
          }
        : {
            type: 'tool-result',
            toolCallId: outcome.block.callId,
            toolName: outcome.block.toolName,
            result: outcome.block.result,
            error: outcome.block.error,
            skipped: outcome.skipped,
          },
    );
  }
  if (additional !== undefined)
    for (const entry of additional) responseBlocks.push({ type: 'text', text: entry });
  // Written at the end of this event-loop turn (or before the next hook, which commits first):
  // the next model call leaves first, and the write runs while the model works. A kill in that
  // gap answers the call "interrupted", as a kill a moment earlier, while the tool ran, would.
  run.appendMessage({ speaker: 'tool', blocks: responseBlocks });

  if (stopReason !== undefined) return { status: 'stopped', reason: stopReason, endsRun: true };
  return undefined;
}

/**
 * Appends the answer to the history with its calls on record before any of them runs, so a
 * process killed mid-step leaves no effect without its call in the transcript. What has to be in
 * the kernel first is the calls (and the reasoning blocks providers require beside them), not the
 * answer's prose (a write that fails throws `TranscriptWriteError`, and no call runs): an answer with text is written ahead as a `pending-message` without it, and
 * its whole `message` record follows with the step's other bookkeeping, at the end of this
 * event-loop turn or before the next hook (a kill in between loses the prose, never a call).
 */
function writeAhead(run: RunState, message: Message): void {
  const transcript = run.session.transcript;
  if (message.blocks.some((block) => block.type === 'text')) {
    transcript.append({
      type: 'pending-message',
      turn: run.currentTurn,
      message: { ...message, blocks: message.blocks.filter((block) => block.type !== 'text') },
      time: isoTime(),
    });
    // A write that fails (disk full) fails the step here, before any of its calls runs.
    transcript.commitOrThrow();
    run.appendMessage(message);
  } else {
    run.appendMessage(message);
    try {
      transcript.commitOrThrow();
    } catch (error) {
      // The calls never ran: the history does not keep them unanswered.
      const history = run.session.history;
      if (history[history.length - 1] === message) history.pop();
      throw error;
    }
  }
}

/**
 * Runs the step's calls concurrently and settles each (a call that throws, or is cancelled, is
 * a rejected entry). Each result is on record the moment it is known, before the step's tool
 * message, while other calls of the step still run. The last one to settle needs no record of its
 * own: the step's tool message, which holds it, is appended right after (with no hook or await in
 * between), so it costs one write and one serialisation fewer per step. A step of one call, the
 * common case, awaits it directly.
 */
async function settleCalls(
  run: RunState,
  plans: readonly Plan[],
): Promise<PromiseSettledResult<CallOutcome>[]> {
  if (plans.length === 1) {
    try {
      return [{ status: 'fulfilled', value: await executeCall(run, plans[0] as Plan) }];
    } catch (reason) {
      return [{ status: 'rejected', reason }];
    }
  }
  let unsettled = plans.length;
  return Promise.allSettled(
    plans.map(async (plan) => {
      const outcome = await executeCall(run, plan);
      if (--unsettled === 0) return outcome;
      run.record({
        type: 'tool-result',
        turn: run.currentTurn,
        response: outcome.block,
        reviewed: true,
        additionalContext: outcome.additionalContext,
        time: isoTime(),
      });
      run.session.transcript.commit();
      return outcome;
    }),
  );
}

function invalidCallFailure(diagnosis: Diagnosis, how: string, why: string): TurnEnd {
  return {
    status: 'failed',
    reason: `invalid tool call: ${diagnosis.detail}${how}`,
    error: new LoopError(
      'invalid_tool_call',
      `The model made an invalid tool call (${diagnosis.reason}): ${diagnosis.detail}${how}. ${why}`,
      { event: 'invalidToolCall' },
    ),
    endsRun: true,
  };
}

const NONE_OFFERED: ReadonlySet<string> = new Set();
// Per frozen tool list, its names: the list a request offers is usually the registry's frozen,
// stable array (`declarations()`), so a run builds this set once, not once per step. A list a
// hook built (and could still change) gets a set of its own each time.
const offeredSets = new WeakMap<readonly ToolDeclaration[], ReadonlySet<string>>();

/** The names of the tools a request offered. */
function offeredNames(tools: readonly ToolDeclaration[] | undefined): ReadonlySet<string> {
  if (tools === undefined) return NONE_OFFERED;
  let names = offeredSets.get(tools);
  if (names === undefined) {
    names = new Set(tools.map((tool) => tool.name));
    if (Object.isFrozen(tools)) offeredSets.set(tools, names);
  }
  return names;
}

function diagnose(
  call: ToolCallBlock,
  registry: ToolRegistry | undefined,
  offered: ReadonlySet<string>,
): Diagnosis | { readonly args: unknown } {
  let args: unknown = call.parameters;
  if (typeof args === 'string') {
    try {
      args = ToolRegistry.parseArguments(args);
    } catch (error) {
      return {
        reason: 'invalid_arguments',
        detail: `the arguments of tool "${call.name}" are not JSON: ${error instanceof Error ? error.message : String(error)}`,
        args: call.parameters,
      };
    }
  }
  if (registry?.has(call.name) !== true) {
    const names = registry?.names() ?? [];
    return {
      reason: 'unknown_tool',
      detail: `unknown tool "${call.name}"; available tools: ${names.length > 0 ? names.join(', ') : '(none)'}`,
      args,
    };
  }
  if (!offered.has(call.name)) {
    return {
      reason: 'tool_not_allowed',
      detail: `tool "${call.name}" was not offered for this call (the tool choice allows: ${offered.size > 0 ? [...offered].join(', ') : 'no tools'})`,
      args,
    };
  }
  const validation = registry.validate(call.name, args);
  if (!validation.ok) {
    return {
      reason: 'invalid_arguments',
      detail: `the arguments of tool "${call.name}" do not match its schema: ${validation.errors}`,
      args,
    };
  }
  return { args };
}

/**
 * Runs one call (`executeCallBody`) and records it: a `tool-call` transcript record and, with a
 * tracer, its `execute_tool` span, open from its PreToolUse hooks to its PostToolUse hooks.
 */
async function executeCall(run: RunState, plan: Plan): Promise<CallOutcome> {
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

/** The fields every tool event of a call carries besides its name, id and arguments. */
function toolEventFields(run: RunState, toolName: string): { readonly mcpContext?: McpContext } {
  const mcpContext = run.config.tools?.get(toolName)?.mcpContext;
  return mcpContext === undefined ? NO_FIELDS : { mcpContext };
}
const NO_FIELDS = Object.freeze({});
/** The permission layer a hook's `ask` is put through when the agent has none of its own. */
const NO_RULES: AgentPermissions = { rules: { allow: [], deny: [], ask: [] } };

async function executeCallBody(run: RunState, plan: Plan): Promise<CallOutcome> {
  const call = plan.call;
  const fields = toolEventFields(run, call.name);
  let args = plan.args;
  let skipReason = plan.kind === 'skip' ? plan.reason : undefined;
  let stop: string | undefined;
  let hookAsk: ToolCallAsk | undefined;

  if (plan.kind === 'run') {
    const event: ToolCallEvent = {
      toolName: call.name,
      toolCallId: call.id,
      args,
      originalArgs: args,
      ...fields,
    };
    const fired = run.fire('toolCall', () => event);
    const action = fired && (await fired);
    if (action !== undefined) {
      // The final action says whether the arguments were rewritten (a skip/stop carries them).
      args = toolCallResolution(action, event).args;
      // A hook's `ask` goes to the person at the terminal when there is one, else it skips.
      if (action.kind === 'skip' && action.ask !== undefined && run.config.approver !== undefined)
        hookAsk = action.ask;
      else if (action.kind === 'skip') skipReason = action.reason;
      if (action.kind === 'stop') {
        stop = action.reason;
        skipReason = `the run was stopped: ${action.reason}`;
      }
    }
  }
  // Permission rules and mode decide after PreToolUse, on the arguments as rewritten.
  const permissions = run.config.permissions ?? (hookAsk === undefined ? undefined : NO_RULES);
  if (plan.kind === 'run' && skipReason === undefined && permissions !== undefined) {
    const registry = run.config.tools;
    const outcome = await checkPermission(
      run,
      permissions,
      {
        toolName: call.name,
        toolCallId: call.id,
        args,
        ...fields,
        ...(hookAsk === undefined ? {} : { hookAsk }),
      },
      (candidate) => {
        const validation = registry?.validate(call.name, candidate);
        return validation === undefined || validation.ok ? undefined : validation.errors;
      },
    );
    if (outcome.kind === 'refuse') skipReason = outcome.reason;
    else args = outcome.args;
  }
  run.emit({ type: 'tool-call', toolCallId: call.id, toolName: call.name, args });

  if (skipReason !== undefined) {
    const block: ToolResponseBlock = {
      type: 'tool_response',
      callId: call.id,
      toolName: call.name,
      result: null,
      error: skipReason,
    };
    // A hook-skipped call still reaches PostToolUse (`skipped: true`); an invalid call does not.
    if (plan.kind === 'run' && stop === undefined)
      return afterTool(run, call, args, block, true, undefined);
    return { block, args, skipped: true, additionalContext: undefined, stop };
  }

  let result: unknown = null;
  let error: string | undefined;
  const tool = run.config.tools?.get(call.name);
  try {
    if (tool === undefined) throw new Error(`tool "${call.name}" is not registered`);
    if (isSubagentTool(tool)) {
      // The `agent` tool runs a child loop through this run's hooks (see subagent.ts).
      const outcome = await runSubagent(run, call.id, args);
      result = outcome.result;
      if (outcome.stop !== undefined) stop = outcome.stop;
    } else {
      result = await run.settle(
        tool.execute(args, { signal: run.signal, cwd: run.session.info.cwd, toolCallId: call.id }),
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
          : { type: 'tool_response', callId: call.id, toolName: call.name, result: null, error },
      reviewed: false,
      time: isoTime(),
    });
    run.session.transcript.commit();
  }

  if (error !== undefined) {
    const block: ToolResponseBlock = {
      type: 'tool_response',
      callId: call.id,
      toolName: call.name,
      result: null,
      error,
    };
    let additionalContext: string | undefined;
    const failed = error;
    const calledWith = args;
    const action = await run.fire('toolFailure', () => ({
      toolName: call.name,
      toolCallId: call.id,
      args: calledWith,
      error: failed,
      ...fields,
    }));
    if (action?.kind === 'stop') stop = action.reason;
    else additionalContext = action?.additionalContext;
    return { block, args, skipped: false, additionalContext, stop };
  }
  const block: ToolResponseBlock = {
    type: 'tool_response',
    callId: call.id,
    toolName: call.name,
    result,
  };
  return afterTool(run, call, args, block, false, stop);
}

/** PostToolUse: with no hook observing it, the outcome at once (no promise). */
function afterTool(
  run: RunState,
  call: ToolCallBlock,
  args: unknown,
  block: ToolResponseBlock,
  skipped: boolean,
  stop: string | undefined,
): CallOutcome | Promise<CallOutcome> {
  const fired = run.fire('toolResult', () => ({
    toolName: call.name,
    toolCallId: call.id,
    args,
    presentation: block.result,
    raw:
      block.error === undefined
        ? { result: block.result }
        : { result: block.result, error: block.error },
    skipped,
    ...toolEventFields(run, call.name),
  }));
  if (fired === undefined) return { block, args, skipped, additionalContext: undefined, stop };
  return fired.then((action) => {
    if (action.kind === 'stop')
      return { block, args, skipped, additionalContext: undefined, stop: stop ?? action.reason };
    let presented = block;
    if (action.kind === 'rewrite') {
      const problem = jsonEncodingProblem(action.presentation);
      if (problem === undefined) presented = { ...block, result: action.presentation };
      else
        run.report({
          level: 'warning',
          text: `a PostToolUse hook rewrote the result of call ${call.id} (${call.name}) to a value JSON cannot encode (${problem.path}: ${problem.reason}); the tool's own result was kept`,
          event: 'toolResult',
        });
    }
    return { block: presented, args, skipped, additionalContext: action.additionalContext, stop };
  });
}
