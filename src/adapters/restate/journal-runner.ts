/**
 * The durable step runner: each model call, tool call and hook run of a session turn is one
 * Restate `ctx.run` step with a deterministic name (`model 3`, `tool 2 shell call_ab`,
 * `hook 7 toolCall`; the number counts that kind of step within the invocation, and the loop
 * issues its steps in one order, see `loop/step-runner.ts`). A step that completed is replayed
 * from the journal after a crash, never run again. A step's outcome is journaled as a JSON
 * envelope (`{ value }` or `{ error }`), so a failing tool or model is an outcome, not a retry.
 *
 * A tool call that was running when its worker died follows its recovery policy: `rerun` runs it
 * again (its `ctx.run` had no journaled outcome, so Restate runs the action); `report` needs to
 * know that an earlier attempt started it, so it journals a `… started` marker holding the
 * attempt's id before the call: a marker from another attempt with no outcome means the call was
 * interrupted, and the journaled outcome says so instead of running the tool again.
 */
import type { ObjectContext } from '@restatedev/restate-sdk';
import { CancelledError as RestateCancelled } from '@restatedev/restate-sdk';
import type { ModelResponse } from '../../content/index.ts';
import type { Awaitable, ObservedHookRun } from '../../events/index.ts';
import type { HookStepInfo, ModelStepInfo, StepRunner, ToolStepInfo } from '../../loop/index.ts';
import type { RecoveryPolicy } from './recovery.ts';

/** A step's journaled outcome. */
type Outcome =
  | { readonly value: unknown; readonly runs?: unknown }
  | { readonly error: { readonly message: string; readonly name: string } };

/** The error a call interrupted by a worker's death is answered with, under `report`. */
export const INTERRUPTED_CALL =
  'interrupted: the worker running this call died before it finished; the tool may or may not have run';

function failure(error: unknown): Outcome {
  return error instanceof Error
    ? { error: { message: error.message, name: error.name } }
    : { error: { message: String(error), name: 'Error' } };
}

function unwrap(outcome: Outcome): unknown {
  if ('error' in outcome) {
    const error = new Error(outcome.error.message);
    error.name = outcome.error.name;
    throw error;
  }
  return outcome.value;
}

/** What a journaled value becomes: JSON, as the journal stores it (so a live run sees what a replay sees). */
function asJson(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

export interface JournalRunnerOptions {
  readonly ctx: ObjectContext;
  /** This invocation attempt's id (a fresh random id per handler call). */
  readonly attempt: string;
  /** The recovery policy of a tool. */
  readonly recovery: (toolName: string) => RecoveryPolicy;
  /** Called once when Restate cancels the invocation (the loop's run is cancelled then). */
  readonly onCancel: () => void;
}

/** The `StepRunner` that journals each step in the invocation's Restate journal. */
export class JournalRunner implements StepRunner {
  readonly #options: JournalRunnerOptions;
  #models = 0;
  #tools = 0;
  #hooks = 0;
  #cancelled = false;

  constructor(options: JournalRunnerOptions) {
    this.#options = options;
  }

  /** The step names journaled so far in this attempt, in order (for tests and the trace). */
  readonly steps: string[] = [];

  async #step(name: string, action: () => Promise<Outcome>): Promise<Outcome> {
    this.steps.push(name);
    try {
      return await this.#options.ctx.run(name, action);
    } catch (error) {
      if (error instanceof RestateCancelled && !this.#cancelled) {
        this.#cancelled = true;
        this.#options.onCancel();
      }
      throw error;
    }
  }

  async runModel(step: ModelStepInfo, call: () => Promise<ModelResponse>): Promise<ModelResponse> {
    const name = `model ${++this.#models} (turn ${step.turn})`;
    const outcome = await this.#step(name, async () => {
      try {
        return { value: asJson(await call()) };
      } catch (error) {
        return failure(error);
      }
    });
    return unwrap(outcome) as ModelResponse;
  }

  async runTool(step: ToolStepInfo, call: () => Promise<unknown>): Promise<unknown> {
    const name = `tool ${++this.#tools} ${step.toolName} ${step.toolCallId}`;
    const { attempt, ctx } = this.#options;
    let interrupted = false;
    if (this.#options.recovery(step.toolName) === 'report') {
      this.steps.push(`${name} started`);
      const started = await ctx.run(`${name} started`, () => Promise.resolve(attempt));
      interrupted = started !== attempt;
    }
    const outcome = await this.#step(name, async () => {
      // Reached only when the call's outcome is not journaled: under `report`, a marker from an
      // earlier attempt means that attempt was running the call when it died.
      if (interrupted) return { error: { message: INTERRUPTED_CALL, name: 'Error' } };
      try {
        return { value: asJson(await call()) ?? null };
      } catch (error) {
        return failure(error);
      }
    });
    return unwrap(outcome);
  }

  runHook<A>(step: HookStepInfo, call: () => Awaitable<A> | undefined): Promise<A | undefined> {
    const name = `hook ${++this.#hooks} ${step.event}`;
    let ran = false;
    return this.#step(name, async () => {
      ran = true;
      // The fire's hook runs are journaled with its answer, so a replay records them again.
      const stop = step.hookRuns?.collect();
      try {
        const answer = await call();
        const runs = stop?.() ?? [];
        return {
          value: answer === undefined ? null : asJson(answer),
          ...(runs.length === 0 ? {} : { runs: asJson(runs) }),
        };
      } catch (error) {
        stop?.();
        return failure(error);
      }
    }).then((outcome) => {
      if (!ran && 'runs' in outcome && Array.isArray(outcome.runs))
        step.hookRuns?.replay(outcome.runs as ObservedHookRun[]);
      const value = unwrap(outcome);
      return (value === null ? undefined : value) as A | undefined;
    });
  }
}
