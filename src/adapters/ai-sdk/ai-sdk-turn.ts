/**
 * The turn `hw.generateText` / `hw.streamText` run around the AI SDK's call, in the AI SDK's
 * shapes: the prompt (UserPromptSubmit through the lifecycle's `submitPrompt`), the end of each
 * round (a hook's stop, a failed answer, Stop and its budget through `afterTurn`), and a failed
 * or aborted call (StopFailure / Interrupt). The rules are the lifecycle's (src/lifecycle/);
 * this file translates messages, finish reasons and errors.
 */
import type { ModelMessage } from 'ai';
import type { FinishReason } from '../../content/index.ts';
import {
  afterTurn,
  cancelReason,
  deniedTurnEnd,
  failedAnswer,
  isPromiseLike,
  modelCallFailed,
  submitPrompt,
  turnFailed,
  turnInterrupted,
  type DenyingEvent,
} from '../../lifecycle/index.ts';
import type { RunStatus } from '../../loop/run-events.ts';
import type { EmbeddedSession } from '../embedding/embedded-session.ts';
import { HookDeniedError, HookStoppedError } from '../embedding/hook-errors.ts';
import type { RunScope } from '../embedding/run-scope.ts';
import { fromModelMessages, lastUserText, withPromptContext } from './model-messages.ts';

/** The AI SDK's finish reasons that fail a turn, as the lifecycle's. */
const NEUTRAL_FAILURES: Readonly<Record<string, FinishReason | undefined>> = {
  'content-filter': 'safety',
  error: 'error',
};

/** How a turn ended (its transcript's `turn-end`). */
export interface TurnEnded {
  readonly status: RunStatus;
  readonly reason?: string | undefined;
}

/** What a round leads to: another round with the continuation message, or the turn's end. */
type RoundEnd = TurnEnded | { readonly continuation: string };

const COMPLETED: TurnEnded = { status: 'completed' };

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/** The messages of the call options (`prompt` as a user message when it is a string). */
export function messagesOf(options: {
  readonly prompt?: string | ModelMessage[] | undefined;
  readonly messages?: ModelMessage[] | undefined;
}): ModelMessage[] {
  if (typeof options.prompt === 'string') return [{ role: 'user', content: options.prompt }];
  return options.prompt ?? options.messages ?? [];
}

/** Call options with `messages` in place of `prompt`/`messages`. */
export function withMessages<T extends object>(options: T, messages: ModelMessage[]): T {
  const {
    prompt: _prompt,
    messages: _messages,
    ...rest
  } = options as T & {
    prompt?: unknown;
    messages?: unknown;
  };
  return { ...rest, messages } as T;
}

/**
 * True when the turn around a call has nothing to do, decided per call: no hook observes
 * UserPromptSubmit, Stop, StopFailure or Interrupt, no SessionStart context waits for the
 * first prompt, and no transcript is written.
 */
export function turnIsIdle(session: EmbeddedSession): boolean {
  const hooks = session.hooks;
  return (
    !session.recording &&
    (session.pendingContext === undefined || session.pendingContext === '') &&
    !hooks.observes('promptSubmit') &&
    !hooks.observes('stop') &&
    !hooks.observes('stopFailure') &&
    !hooks.observes('interrupt')
  );
}

/**
 * The turn's opening: UserPromptSubmit (the lifecycle's `submitPrompt`; a deny or stop
 * rejects), the session and prompt context added to the prompt. Returns the prompt text and the
 * messages to send.
 */
export async function openTurn(
  session: EmbeddedSession,
  scope: RunScope,
  messages: ModelMessage[],
): Promise<{ prompt: string; messages: ModelMessage[]; changed: boolean; turn: number }> {
  const prompt = lastUserText(messages);
  const turn = session.startTurn(prompt);
  const sessionContext = session.pendingContext;
  session.pendingContext = undefined;
  const submitted = submitPrompt(scope.lifecycle, prompt, sessionContext);
  const decision = isPromiseLike(submitted) ? await submitted : submitted;
  if (decision.kind === 'deny') {
    session.pendingContext = sessionContext;
    session.endTurn(turn, 'stopped', decision.turnEnd);
    throw new HookDeniedError('UserPromptSubmit', decision.reason);
  }
  if (decision.kind === 'stop') {
    session.endTurn(turn, 'stopped', decision.reason);
    throw new HookStoppedError('UserPromptSubmit', decision.reason);
  }
  const changed =
    decision.before !== undefined || decision.after !== undefined || decision.rewritten;
  const sent = changed
    ? withPromptContext(
        messages,
        decision.before,
        decision.after,
        decision.rewritten ? decision.prompt : undefined,
      )
    : messages;
  const last = sent.at(-1);
  if (last !== undefined) session.recordMessages(turn, () => fromModelMessages([last]));
  return { prompt, messages: sent, changed, turn };
}

/**
 * After a round, the lifecycle's end of a turn: a hook's stop during the round, a failed answer
 * (StopFailure), or Stop with its budget. Returns the continuation message (a Stop block's
 * reason), or how the turn ends.
 */
export async function afterRound(
  session: EmbeddedSession,
  scope: RunScope,
  turn: { prompt: string; continuations: number; number: number },
  text: () => string,
  finishReason: string,
  rawFinishReason: string | undefined,
): Promise<RoundEnd> {
  if (scope.stopReason !== undefined) return { status: 'stopped', reason: scope.stopReason };
  const hooks = scope.lifecycle;
  const neutral = NEUTRAL_FAILURES[finishReason];
  const failed = failedAnswer(neutral, rawFinishReason);
  if (failed !== undefined) {
    await turnFailed(hooks, {
      prompt: turn.prompt,
      error: failed,
      finishReason: neutral,
      rawStopReason: rawFinishReason,
    });
    return { status: 'failed', reason: failed };
  }
  const decided = afterTurn(hooks, {
    prompt: turn.prompt,
    answer: text,
    continuations: turn.continuations,
    budget: session.stopContinuationsPerTurn,
  });
  const decision = isPromiseLike(decided) ? await decided : decided;
  if (decision.kind === 'continue') {
    turn.continuations++;
    return { continuation: decision.continuation };
  }
  return decision.status === 'stopped' ? { status: 'stopped', reason: decision.reason } : COMPLETED;
}

/**
 * How a failed call ends the turn: Interrupt (aborted), a hook's no (`stopped`, as the loop
 * words it), or StopFailure.
 */
export async function failedTurn(
  scope: RunScope,
  error: unknown,
  prompt: string,
  signal: AbortSignal | undefined,
): Promise<TurnEnded> {
  if (signal?.aborted === true) {
    await turnInterrupted(scope.lifecycle, prompt);
    return { status: 'cancelled', reason: cancelReason(signal) };
  }
  if (error instanceof HookDeniedError)
    return {
      status: 'stopped',
      reason: deniedTurnEnd(error.event as DenyingEvent, error.reason),
    };
  if (error instanceof HookStoppedError) return { status: 'stopped', reason: error.reason };
  const reason = modelCallFailed(errorText(error));
  await turnFailed(scope.lifecycle, { prompt, error: reason });
  return { status: 'failed', reason };
}

/** Records how the turn ended. */
export function endTurn(session: EmbeddedSession, turn: number, ended: TurnEnded): void {
  session.endTurn(turn, ended.status, ended.reason);
}

/**
 * The last round's result, seen as the whole turn's: `steps` and `responseMessages` cover every
 * round (with the continuation user messages between them). Everything else is the last round's.
 */
export function withRounds<
  R extends { readonly responseMessages: ModelMessage[]; readonly steps: unknown[] },
>(result: R, rounds: readonly R[], continuations: readonly ModelMessage[]): R {
  const added: ModelMessage[] = [];
  rounds.forEach((round, index) => {
    added.push(...round.responseMessages);
    const continuation = continuations[index];
    if (continuation !== undefined) added.push(continuation);
  });
  const steps = rounds.flatMap((round) => round.steps);
  const response = (result as unknown as { response: object }).response;
  return Object.create(result, {
    steps: { value: steps, enumerable: true },
    responseMessages: { value: added, enumerable: true },
    response: { value: { ...response, messages: added }, enumerable: true },
  }) as R;
}
