/**
 * The step-runner seam: the one place where the loop executes a model call, a tool call and a
 * hook run (a fire of one event through the agent's composed hook, every hook kind included).
 *
 * Without a runner (`AgentOptions.stepRunner` unset, the default) each step runs directly, as it
 * always has: the fire sites test `config.stepRunner === undefined` and call the model, the tool
 * or the hook themselves, so the default costs one property read per step. A runner wraps each
 * execution: a durable runner (`hookwire/restate`) journals it, so that a step that completed is
 * replayed from the journal after a crash instead of running again.
 *
 * What a runner must keep: `call` is the step itself, run at most once per `run*` call; the value
 * it returns (or the error it throws) is the step's outcome. A runner that journals must return
 * the journaled outcome unchanged (JSON round-trip) on replay. The loop records the step in its
 * transcript around the call, as without a runner.
 *
 * With a runner the loop keeps its steps in a deterministic order, which a journal needs: the
 * calls of one tool step run one after another in call order (not concurrently), and the model
 * is called blocking (a streaming run emits no deltas). `modelSelection` hooks, which answer
 * synchronously with a model object, run directly.
 */
import type { ModelResponse } from '../content/index.ts';
import type { HookEventKind } from '../events/index.ts';
import type { Awaitable } from '../events/index.ts';
import type { ObservedHookRun } from '../events/observed-hook-run.ts';

/** A model call: the turn and the run's model-call number (1-based). */
export interface ModelStepInfo {
  readonly turn: number;
  readonly modelCall: number;
}

/** A tool call: the tool's name and the call's id. */
export interface ToolStepInfo {
  readonly turn: number;
  readonly toolName: string;
  readonly toolCallId: string;
}

/** A hook run: the event fired through the composed hook. */
export interface HookStepInfo {
  readonly event: HookEventKind;
  readonly turn: number;
  /**
   * The hook runs the fire records (its `hook-run` transcript records), for a runner that
   * journals them with the answer: `collect()` before the call starts collecting and returns
   * what stops and reads them; `replay(runs)` records runs a journal replays (the call did not
   * run in this process), so a replayed turn's transcript still holds each hook run once.
   */
  readonly hookRuns?: HookRunLog;
}

/** See `HookStepInfo.hookRuns`. */
export interface HookRunLog {
  collect(): () => readonly ObservedHookRun[];
  replay(runs: readonly ObservedHookRun[]): void;
}

/**
 * A session's hook runs as they are recorded, collected for the step that is running (with a
 * runner, steps run one at a time). Kept only when the agent has a step runner.
 */
export class HookRunCollector {
  #collecting: ObservedHookRun[] | undefined;

  /** Called for each hook run recorded. */
  observe(run: ObservedHookRun): void {
    this.#collecting?.push(run);
  }

  /** The log of one fire site, whose replayed runs go to `record`. */
  log(record: (run: ObservedHookRun) => void): HookRunLog {
    return {
      collect: () => {
        const runs: ObservedHookRun[] = [];
        this.#collecting = runs;
        return () => {
          if (this.#collecting === runs) this.#collecting = undefined;
          return runs;
        };
      },
      replay: (runs) => {
        for (const run of runs) record(run);
      },
    };
  }
}

/** Executes (and, for a durable runner, journals) the loop's steps. */
export interface StepRunner {
  /** A model call; resolves to the model's answer, rejects with its error. */
  runModel(step: ModelStepInfo, call: () => Promise<ModelResponse>): Promise<ModelResponse>;
  /** A tool call; resolves to the tool's result, rejects with its error. */
  runTool(step: ToolStepInfo, call: () => Promise<unknown>): Promise<unknown>;
  /** A hook run; its answer, or `undefined` when the hook did not answer (it never observes). */
  runHook<A>(
    step: HookStepInfo,
    call: () => Awaitable<A> | undefined,
  ): Awaitable<A | undefined> | undefined;
}
