/**
 * The end of a turn, for every host: Stop (or SubagentStop) with the continuation budget when the
 * turn completes, StopFailure when it fails, Interrupt when it is cancelled.
 *
 * - A Stop `block` continues the turn with its reason as the next user message, at most
 *   `stopContinuationsPerTurn` consecutive times (default 8, Claude Code's); past the budget the
 *   block is reported as a warning saying how to raise it, and the turn ends completed. A block
 *   while another prompt is queued is moot (the queued prompt runs next).
 * - A Stop `stop` ends the turn `stopped` with its reason; `continue` ends it `completed`.
 * - An answer that ended with a failure finish reason (safety, refusal, error) fails the turn.
 */
import type { FinishReason } from '../content/index.ts';
import type { EventMap, StopAction } from '../events/index.ts';
import type { LifecycleHooks } from './lifecycle-hooks.ts';

/** Default Stop continuations per turn (Claude Code's). */
export const DEFAULT_STOP_CONTINUATIONS_PER_TURN = 8;

/** What a completed answer leads to. */
export type TurnEndDecision =
  | {
      readonly kind: 'end';
      readonly status: 'completed';
      /** True when a Stop hook answered (a cancel arriving now fires no Interrupt). */
      readonly answered: boolean;
    }
  | { readonly kind: 'end'; readonly status: 'stopped'; readonly reason: string }
  /** Continue the turn with `continuation` as the next user message (one budget spent). */
  | { readonly kind: 'continue'; readonly continuation: string };

/** The facts of a completed answer. */
export interface TurnEndFacts {
  /** The prompt that opened the turn. */
  readonly prompt: string;
  /** The text of the accepted answer (read only when a hook observes the event). */
  readonly answer: () => string;
  /** Continuations this turn already spent. */
  readonly continuations: number;
  /** The turn's budget (`stopContinuationsPerTurn`). */
  readonly budget: number;
  /** A subagent's run fires SubagentStop instead of Stop, with the same budget and effects. */
  readonly subagent?: {
    readonly agentId: string;
    readonly agentType: string;
    readonly transcriptPath: string;
  };
  /** True when another prompt is queued: a block is then moot. Absent: never. */
  readonly queued?: () => boolean;
  /** Throws when the run was cancelled while the hook ran (its answer is then discarded). */
  readonly throwIfCancelled?: () => void;
}

const COMPLETED: TurnEndDecision = { kind: 'end', status: 'completed', answered: false };
const ANSWERED: TurnEndDecision = { kind: 'end', status: 'completed', answered: true };

/**
 * Stop (SubagentStop for a subagent) after a completed answer, and the budget. Returns at once,
 * with no promise, when no hook observes the event.
 */
export function afterTurn(
  hooks: LifecycleHooks,
  facts: TurnEndFacts,
): TurnEndDecision | Promise<TurnEndDecision> {
  const { subagent, continuations, budget } = facts;
  const fired =
    subagent === undefined
      ? hooks.fire('stop', () => ({
          stopHookActive: continuations > 0,
          prompt: facts.prompt,
          promptResponse: facts.answer(),
          continuations,
          continuationBudget: budget,
        }))
      : hooks.fire('subagentStop', () => ({
          agentId: subagent.agentId,
          agentType: subagent.agentType,
          stopHookActive: continuations > 0,
          result: facts.answer(),
          agentTranscriptPath: subagent.transcriptPath,
          continuations,
          continuationBudget: budget,
        }));
  if (fired === undefined) return COMPLETED;
  return fired.then((action) => stopDecision(hooks, facts, action));
}

function stopDecision(
  hooks: LifecycleHooks,
  facts: TurnEndFacts,
  action: StopAction,
): TurnEndDecision {
  facts.throwIfCancelled?.();
  if (action.kind === 'continue') return ANSWERED;
  if (action.kind === 'stop') return { kind: 'end', status: 'stopped', reason: action.reason };
  const event = facts.subagent === undefined ? 'stop' : 'subagentStop';
  if (facts.queued?.() === true) {
    hooks.report({
      level: 'message',
      text: `a Stop hook asked to continue ("${action.reason}"), but a prompt was queued meanwhile; the queued prompt runs instead`,
      event,
    });
    return ANSWERED;
  }
  const { continuations, budget } = facts;
  if (continuations >= budget) {
    hooks.report({
      level: 'warning',
      text:
        facts.subagent === undefined
          ? `a Stop hook blocked again ("${action.reason}"), but this turn already continued ${continuations} time(s) (stopContinuationsPerTurn: ${budget}); the turn ends. ${RAISE}`
          : `a SubagentStop hook blocked again ("${action.reason}"), but this subagent already continued ${continuations} time(s) (stopContinuationsPerTurn: ${budget}); its answer stands. ${RAISE}`,
      event,
    });
    return ANSWERED;
  }
  return { kind: 'continue', continuation: action.reason };
}

const RAISE =
  'Raise stopContinuationsPerTurn (hookwire run --max-stop-continuations N) to let Stop hooks continue a turn more often.';

/** Finish reasons that mean the answer failed: StopFailure fires instead of Stop. */
const FAILURE_REASONS: ReadonlySet<FinishReason | undefined> = new Set<FinishReason | undefined>([
  'safety',
  'refusal',
  'error',
]);

/** Why an answer failed the turn, when its finish reason says it failed. */
export function failedAnswer(
  finishReason: FinishReason | undefined,
  rawStopReason: string | undefined,
): string | undefined {
  if (!FAILURE_REASONS.has(finishReason)) return undefined;
  const said =
    rawStopReason === undefined ? '' : ` (provider said ${JSON.stringify(rawStopReason)})`;
  return `the model's answer ended with finish reason "${String(finishReason)}"${said}`;
}

/** The reason a cancelled turn ends with: the signal's reason when it is a string. */
export function cancelReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return typeof reason === 'string' ? reason : 'the run was cancelled';
}

/** The facts of a failed turn. */
export interface TurnFailure {
  readonly prompt: string;
  readonly error: string;
  readonly finishReason?: FinishReason | undefined;
  readonly rawStopReason?: string | undefined;
}

/** StopFailure for a failed turn (a closing event: see `LifecycleHooks.fireClosing`). */
export async function turnFailed(hooks: LifecycleHooks, failure: TurnFailure): Promise<void> {
  const event = (): EventMap['stopFailure']['event'] => ({
    error: failure.error,
    finishReason: failure.finishReason,
    rawStopReason: failure.rawStopReason,
    prompt: failure.prompt,
  });
  if (hooks.fireClosing !== undefined) return hooks.fireClosing('stopFailure', event);
  await hooks.fire('stopFailure', event);
}

/** Interrupt for a cancelled turn whose Stop did not complete (a closing event). */
export async function turnInterrupted(hooks: LifecycleHooks, prompt: string): Promise<void> {
  const event = (): EventMap['interrupt']['event'] => ({ prompt });
  if (hooks.fireClosing !== undefined) return hooks.fireClosing('interrupt', event);
  await hooks.fire('interrupt', event);
}

/** The events whose deny ends a turn `stopped` while the run goes on. */
export type DenyingEvent = 'UserPromptSubmit' | 'BeforeModel' | 'AfterModel';

/** What a turn a hook denied ends with (the same words in every host). */
export function deniedTurnEnd(event: DenyingEvent, reason: string): string {
  switch (event) {
    case 'UserPromptSubmit':
      return `UserPromptSubmit denied the prompt: ${reason}`;
    case 'BeforeModel':
      return `BeforeModel denied the model call: ${reason}`;
    case 'AfterModel':
      return `AfterModel denied the model's output: ${reason}`;
  }
}

/** What a turn whose model call failed ends with. */
export function modelCallFailed(message: string): string {
  return `the model call failed: ${message}`;
}
