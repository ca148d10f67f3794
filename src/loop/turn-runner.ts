/**
 * One turn: a submitted prompt, the steps it takes (model call, then tool calls) until the model
 * answers without tool calls, and the turn's one terminal hook event:
 *
 * - `Stop` when the turn completes — never after a step that called tools (the finish reason is
 *   reconciled first, so a provider's `stop` beside tool calls reads `tool_calls`), never after a
 *   failed or filtered answer, never while another prompt is queued (that prompt runs next and
 *   its own turn fires Stop). A block continues the turn with the reason as a user message, at
 *   most `stopContinuationsPerTurn` times; the next Stop has `stopHookActive: true`. A block that
 *   arrives after a prompt was queued during the Stop hook is moot: the queued prompt runs.
 * - `StopFailure` when the turn fails (safety/refusal/error answer, provider error, unresolved
 *   invalid tool call, a hook that threw).
 * - `Interrupt` when the turn is cancelled — unless its Stop already completed, in which case the
 *   pending continuation is dropped and nothing more fires. A Stop whose turn is cancelled while
 *   the hook runs is discarded (its answer is not awaited) and Interrupt fires.
 *
 * See docs/loop.md for the whole lifecycle as pseudo-code.
 */
import { textOf, type ContentBlock } from '../content/index.ts';
import {
  afterTurn,
  isPromiseLike,
  submitPrompt,
  turnFailed,
  turnInterrupted,
} from '../lifecycle/index.ts';
import { CancelledError } from './loop-error.ts';
import { compactAfterRejection, compactIfNeeded } from './compact-step.ts';
import { runModelStep } from './model-step.ts';
import { endTurnSpan, startTurnSpan } from './run-telemetry.ts';
import type { RunState, TurnEnd, TurnState } from './run-state.ts';
import { runToolStep } from './tool-step.ts';
import { isoTime } from './timestamp.ts';

const now = (): string => isoTime();

/** Runs the turn that `prompt` opens and fires its terminal event. */
export async function runTurn(run: RunState, prompt: string): Promise<TurnEnd> {
  const session = run.session;
  const number = ++session.turnCounter;
  run.currentTurn = number;
  run.emit({ type: 'turn-start', turn: number, prompt });
  run.record({ type: 'turn-start', turn: number, prompt, time: now() });
  const tracer = run.config.tracer;
  if (tracer !== undefined)
    run.turnSpan = startTurnSpan(
      tracer,
      session.span,
      session.info.sessionId,
      run.config.agentName,
      number,
    );
  const turn: TurnState = {
    number,
    prompt,
    promptIndex: -1,
    continuations: 0,
    invalidToolCalls: 0,
    compactedAfterRejection: false,
    pendingContinuation: undefined,
    stopCompleted: false,
  };
  let end: TurnEnd;
  try {
    end = await runTurnBody(run, turn);
  } catch (error) {
    if (run.signal.aborted || error instanceof CancelledError) {
      end = { status: 'cancelled', reason: run.cancelReason(), endsRun: true };
    } else {
      const failure = error instanceof Error ? error : new Error(String(error));
      end = { status: 'failed', reason: failure.message, error: failure, endsRun: true };
    }
  }
  // A subagent's end is its parent's tool result: the parent's turn fires its own end events.
  if (run.child === undefined) {
    if (end.status === 'cancelled' && !turn.stopCompleted) await fireInterrupt(run, turn);
    if (end.status === 'failed') await fireStopFailure(run, turn, end);
  }
  if (run.turnSpan !== undefined) {
    endTurnSpan(run.turnSpan, end.status, end.reason);
    run.turnSpan = undefined;
  }
  const result = run.lastAnswer;
  run.record(
    end.reason === undefined
      ? { type: 'turn-end', turn: number, status: end.status, time: now() }
      : { type: 'turn-end', turn: number, status: end.status, reason: end.reason, time: now() },
  );
  run.emit(
    end.reason === undefined
      ? { type: 'turn-end', turn: number, status: end.status, result }
      : { type: 'turn-end', turn: number, status: end.status, result, reason: end.reason },
  );
  run.currentTurn = 0;
  return end;
}

async function runTurnBody(run: RunState, turn: TurnState): Promise<TurnEnd> {
  const { session } = run;
  run.throwIfCancelled();

  const sessionContext = session.pendingContext;
  session.pendingContext = undefined;
  // A subagent's prompt comes from its parent's `agent` call, not from the user.
  const submitted =
    run.child === undefined ? submitPrompt(run, turn.prompt, sessionContext) : undefined;
  const decision = isPromiseLike(submitted) ? await submitted : submitted;
  if (decision?.kind === 'deny') {
    // The prompt is discarded; the session context waits for the next prompt.
    session.pendingContext = sessionContext;
    return { status: 'stopped', reason: decision.turnEnd, endsRun: false };
  }
  if (decision?.kind === 'stop') {
    run.appendMessage({
      speaker: 'human',
      blocks: promptBlocks(decision.before, turn.prompt, undefined),
    });
    return { status: 'stopped', reason: decision.reason, endsRun: true };
  }
  // A hook's rewrite of the prompt's text is what the model reads (and the turn's prompt).
  if (decision?.rewritten === true) turn.prompt = decision.prompt;
  run.appendMessage({
    speaker: 'human',
    blocks: promptBlocks(decision?.before ?? sessionContext, turn.prompt, decision?.after),
  });
  turn.promptIndex = session.history.length - 1;

  for (;;) {
    if (turn.pendingContinuation !== undefined) {
      // The continuation is consumed only now: a cancel that arrived after the Stop hook
      // completed drops it (and fires no Interrupt, since Stop was this stretch's end).
      run.throwIfCancelled();
      run.appendMessage({
        speaker: 'human',
        blocks: [{ type: 'text', text: turn.pendingContinuation }],
      });
      turn.promptIndex = session.history.length - 1;
      turn.pendingContinuation = undefined;
      turn.stopCompleted = false;
    }
    // Records already lost (a write failed, e.g. disk full): stop before the next model call.
    session.transcript.throwIfFailed();
    const compacting = compactIfNeeded(run, turn);
    const compacted = compacting && (await compacting);
    if (compacted !== undefined) return compacted;
    const step = await runModelStep(run, turn);
    if (step.kind === 'retry') continue;
    if (step.kind === 'end') {
      // A request the provider rejected as too long: compact once, then try again.
      const afterRejection = await compactAfterRejection(run, turn, step.end.error);
      if (afterRejection === 'retry') continue;
      return afterRejection ?? step.end;
    }
    const promptTokens = step.response.usage?.promptTokens;
    session.contextUsage =
      promptTokens === undefined
        ? undefined
        : { messages: step.request.contents.length, promptTokens };
    run.lastAnswer = textOf(step.response.content);
    if (step.toolCalls.length > 0) {
      const ended = await runToolStep(
        run,
        turn,
        step.response.content,
        step.request,
        step.toolCalls,
      );
      if (ended !== undefined) return ended;
      continue;
    }
    run.appendMessage(step.response.content);
    const stop = await fireStop(run, turn);
    if (stop !== undefined) return stop;
  }
}

function promptBlocks(
  before: string | undefined,
  prompt: string,
  after: string | undefined,
): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (before !== undefined && before !== '') blocks.push({ type: 'text', text: before });
  blocks.push({ type: 'text', text: prompt });
  if (after !== undefined && after !== '') blocks.push({ type: 'text', text: after });
  return blocks;
}

/** Stop for a completed turn (the lifecycle's rule and budget); `undefined`: the turn goes on. */
async function fireStop(run: RunState, turn: TurnState): Promise<TurnEnd | undefined> {
  const { session } = run;
  const completed: TurnEnd = { status: 'completed', endsRun: false };
  // A queued prompt runs next: this turn is not the end of the user's request, so no Stop.
  if (session.queue.length > 0) return completed;
  const child = run.child;
  if (!run.observed[child === undefined ? 'stop' : 'subagentStop']) return completed;
  run.throwIfCancelled();
  const decision = await afterTurn(run, {
    prompt: turn.prompt,
    answer: () => run.lastAnswer,
    continuations: turn.continuations,
    budget: run.config.stopContinuationsPerTurn,
    ...(child === undefined
      ? {}
      : {
          subagent: {
            agentId: child.agent.id,
            agentType: child.agent.type,
            transcriptPath: child.transcriptPath,
          },
        }),
    queued: () => session.queue.length > 0,
    // The turn was cancelled while the Stop hook ran: its answer is discarded.
    throwIfCancelled: () => {
      run.throwIfCancelled();
    },
  });
  if (decision.kind === 'continue') {
    turn.stopCompleted = true;
    turn.continuations++;
    turn.pendingContinuation = decision.continuation;
    return undefined;
  }
  if (decision.status === 'stopped') {
    turn.stopCompleted = true;
    return { status: 'stopped', reason: decision.reason, endsRun: true };
  }
  if (decision.answered) turn.stopCompleted = true;
  return completed;
}

async function fireInterrupt(run: RunState, turn: TurnState): Promise<void> {
  // The run's signal has fired: the Interrupt hook gets a fresh one, bounded by the closing budget.
  await turnInterrupted(run, turn.prompt);
}

async function fireStopFailure(run: RunState, turn: TurnState, end: TurnEnd): Promise<void> {
  await turnFailed(run, {
    error: end.reason ?? end.error?.message ?? 'the turn failed',
    finishReason: end.failure?.finishReason,
    rawStopReason: end.failure?.rawStopReason,
    prompt: turn.prompt,
  });
}
