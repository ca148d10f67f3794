/**
 * The tool half of a step: the calls of an accepted answer are planned (`invalid-calls.ts`:
 * invalid ones diagnosed and resolved), written ahead, then run **concurrently**, each through the
 * lifecycle's sequence (`tool-call.ts`: PreToolUse, permissions, the tool, PostToolUse or
 * PostToolUseFailure). The tool message holds the results **in call order**, whatever order the
 * tools finished in, with the hooks' context after them.
 */
import type { ContentBlock, Message, ModelRequest, ToolCallBlock } from '../content/index.ts';
import { planCalls, type Plan } from './invalid-calls.ts';
import { CancelledError } from './loop-error.ts';
import type { RunState, TurnEnd, TurnState } from './run-state.ts';
import { executeCall, type CallOutcome } from './tool-call.ts';
import { isoTime } from './timestamp.ts';

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
  const planned = await planCalls(run, turn, message, request, toolCalls);
  if (!('plans' in planned)) return planned;
  const { plans, blocks } = planned;
  let stopReason = planned.stopReason;

  writeAhead(run, blocks === undefined ? message : { ...message, blocks });

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
  // A step runner's journal needs the steps in one order: the calls run one after another.
  if (run.config.stepRunner !== undefined) return settleInOrder(run, plans);
  let unsettled = plans.length;
  return Promise.allSettled(
    plans.map(async (plan) => {
      const outcome = await executeCall(run, plan);
      if (--unsettled === 0) return outcome;
      recordSettledResult(run, outcome);
      return outcome;
    }),
  );
}

/**
 * A call's result written as soon as it is known while other calls of the step are still to
 * settle (the last one rides the step's own write): on disk before the next hook or tool runs.
 */
function recordSettledResult(run: RunState, outcome: CallOutcome): void {
  run.record({
    type: 'tool-result',
    turn: run.currentTurn,
    response: outcome.block,
    reviewed: true,
    additionalContext: outcome.additionalContext,
    time: isoTime(),
  });
  run.session.transcript.commit();
}

/** The calls one after another, in call order (with a step runner); a failure ends the rest. */
async function settleInOrder(
  run: RunState,
  plans: readonly Plan[],
): Promise<PromiseSettledResult<CallOutcome>[]> {
  const settled: PromiseSettledResult<CallOutcome>[] = [];
  let failed: unknown;
  for (const plan of plans) {
    if (failed !== undefined) {
      settled.push({ status: 'rejected', reason: failed });
      continue;
    }
    try {
      const outcome = await executeCall(run, plan);
      settled.push({ status: 'fulfilled', value: outcome });
      if (settled.length === plans.length) break;
      recordSettledResult(run, outcome);
    } catch (reason) {
      failed = reason ?? new Error('the call failed');
      settled.push({ status: 'rejected', reason: failed });
    }
  }
  return settled;
}
