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
