/**
 * The loop's budgets (design principle 3: every loop is bounded).
 *
 * - Model calls per run (`maxModelCalls`, default 50): every call the loop issues counts,
 *   including model-turn retries and Stop continuations; a synthetic response from a
 *   completion-call hook counts too, since it stands in for a call. When it is spent the run ends
 *   `budget_exhausted` and a `budget_exhausted` Notification fires.
 * - Stop continuations per turn (`stopContinuationsPerTurn`, default 8, Claude Code's): a blocking
 *   Stop hook continues the turn at most this many times; after that a block is reported as a
 *   warning and the turn ends. Every turn starts with a fresh budget. The rule lives in
 *   src/lifecycle/turn-end.ts, the same in every host.
 * - Invalid tool calls per turn (`invalidToolCallsPerTurn`, default 5): a call to an unknown or
 *   not-offered tool, or with arguments that do not match the tool's schema, that no
 *   `onInvalidToolCall` hook decides is answered with the error as the tool's result, so the model
 *   can correct itself; each such answer takes one from the turn's budget. When it is spent the
 *   next unresolved invalid call fails the turn (`invalid_tool_call`), as 0 does from the start.
 *   Calls a hook resolves (retry, repair, skip, stop) do not count.
 */

/** Default total model calls per run. */
export const DEFAULT_MAX_MODEL_CALLS = 50;
/** Default Stop continuations per turn (the lifecycle's, the same in every host). */
export { DEFAULT_STOP_CONTINUATIONS_PER_TURN } from '../lifecycle/turn-end.ts';
/** Default invalid tool calls per turn answered with their error instead of failing the run. */
export const DEFAULT_INVALID_TOOL_CALLS_PER_TURN = 5;
/** Default time an Interrupt or SessionEnd hook gets (they run after cancellation or at close). */
export const DEFAULT_CLOSING_HOOK_BUDGET_MS = 1500;

/** Counts a run's model calls against its budget. */
export class ModelCallBudget {
  readonly limit: number;
  #used = 0;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`maxModelCalls must be a positive integer, got ${limit}`);
    }
    this.limit = limit;
  }

  get used(): number {
    return this.#used;
  }

  /** Takes one call from the budget; false (nothing taken) when it is spent. */
  take(): boolean {
    if (this.#used >= this.limit) return false;
    this.#used++;
    return true;
  }

  /** The reason a run reports when the budget is spent. */
  exhaustedReason(): string {
    return `the run reached its limit of ${this.limit} model calls (maxModelCalls); raise the limit or make the task smaller`;
  }
}
