/**
 * The run a model call or a tool call belongs to. `hw.generateText` / `hw.streamText` open a
 * scope around the AI SDK call (an `AsyncLocalStorage`, so it follows the SDK's awaits into the
 * wrapped model and tools); a wrapped model or tool used outside one gets a scope of its own per
 * call. The scope carries the run's hook context (run id, turn = model-call index, signal) and
 * what the hooks decided that must outlive one call (a `stop`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HookReport, SessionInfo } from '../../events/context.ts';
import type { ObservedHookRun } from '../../events/observed-hook-run.ts';
import { RunHookContext } from '../../hooks/hook-context.ts';
import type { AgentPermissions } from '../../hooks/permissions/index.ts';
import type { HookStack } from '../../hooks/stack/hook-stack.ts';
import { stackHooks, type LifecycleHooks } from '../../lifecycle/index.ts';

/** What the wrapped model and tools share with the instance that made them. */
export interface HookwireCore {
  /** Every hook of the instance (settings' command hooks, then in-process hooks). */
  readonly hooks: HookStack;
  /** The session hooks see (`session_id`, `transcript_path`, `cwd`). */
  readonly session: SessionInfo;
  readonly agentName: string | undefined;
  /**
   * The permission layer (settings `permissions`, `permissionMode`) wrapped tools check after
   * PreToolUse; `undefined`: every call runs.
   */
  readonly permissions: AgentPermissions | undefined;
  report(report: HookReport): void;
  /**
   * Records a hook run of model call `modelCall` (the transcript's `hook-run` record); absent or
   * `recording` false: runs are not recorded (nothing is timed).
   */
  recordHookRun?(run: ObservedHookRun, modelCall: number): void;
  /** True when hook runs are worth recording (the session writes a transcript). */
  readonly recording?: boolean;
  /**
   * Runs a closing hook (StopFailure, Interrupt) with a fresh context within the closing budget;
   * absent: closing hooks fire like the others.
   */
  settleClosing?<T>(
    event: string,
    fire: (context: RunHookContext) => T | Promise<T>,
  ): Promise<T | undefined>;
}

export class RunScope {
  readonly #core: HookwireCore;
  readonly #signal: AbortSignal | undefined;
  readonly #isStreaming: boolean;
  #context: RunHookContext | undefined;
  #lifecycle: LifecycleHooks | undefined;
  /** Model calls made in this run so far (the hook context's `turn`). */
  modelCalls = 0;
  /** Set when a hook asked to stop the run: the run ends after the current step. */
  stopReason: string | undefined;

  constructor(core: HookwireCore, signal: AbortSignal | undefined, isStreaming: boolean) {
    this.#core = core;
    this.#signal = signal;
    this.#isStreaming = isStreaming;
  }

  /** The run's hook context, built when a hook first needs it (a run no hook sees builds none). */
  get context(): RunHookContext {
    if (this.#context === undefined) {
      const core = this.#core;
      this.#context = new RunHookContext({
        isStreaming: this.#isStreaming,
        ...(core.agentName === undefined ? {} : { agentName: core.agentName }),
        ...(this.#signal === undefined ? {} : { signal: this.#signal }),
        session: core.session,
        report: (report) => {
          core.report(report);
        },
        ...(core.recording === true && core.recordHookRun !== undefined
          ? {
              recordHookRun: (run: ObservedHookRun) => {
                core.recordHookRun?.(run, this.modelCalls);
              },
            }
          : {}),
        // eslint-disable-next-line @typescript-eslint/no-deprecated -- the first release's name, still filled in
        turn: this.modelCalls,
      });
    }
    return this.#context;
  }

  /** The run's hooks as the lifecycle's decision points fire them (see `src/lifecycle/`). */
  get lifecycle(): LifecycleHooks {
    if (this.#lifecycle === undefined) {
      const core = this.#core;
      const settle = core.settleClosing?.bind(core);
      this.#lifecycle = stackHooks(
        core.hooks,
        () => this.context,
        (report) => {
          core.report(report);
        },
        settle === undefined ? undefined : (kind, fire) => settle(kind, fire),
      );
    }
    return this.#lifecycle;
  }

  /** Counts a model call and advances the context's turn. */
  nextModelCall(): number {
    this.modelCalls++;
    this.#context?.setModelCall(this.modelCalls);
    return this.modelCalls;
  }
}

const storage = new AsyncLocalStorage<RunScope>();

/** Runs `body` inside `scope`. */
export function inRunScope<T>(scope: RunScope, body: () => T): T {
  return storage.run(scope, body);
}

/** The scope of the run in progress, if any. */
export function activeScope(): RunScope | undefined {
  return storage.getStore();
}
