/**
 * The state of one run, shared by the turn, model-step and tool-step code: the resolved agent
 * configuration, the session it belongs to, its hook context and cancellation, its budget, the
 * event channel, and the few helpers every step uses (emit, append to history, await a hook).
 */
import type { FinishReason, GenerationSettings, LanguageModel, Message } from '../content/index.ts';
import type { AgentHook, Awaitable } from '../hooks/agent-hook.ts';
import type { HookReport, SessionInfo, SubagentIdentity } from '../events/context.ts';
import type { ContextUsage } from './compaction.ts';
import type { SubagentConfig } from './subagent.ts';
import {
  EVENT_DEFINITIONS,
  HOOK_METHOD,
  STEP_EVENT_KINDS,
  isPromiseLike,
  type EventMap,
  type HookEventKind,
} from '../events/index.ts';
import type { HookContext } from '../events/context.ts';
import { RunHookContext } from '../hooks/hook-context.ts';
import { Scratchpad } from '../events/index.ts';
import { ModelCallBudget } from './budgets.ts';
import { CancelledError } from './loop-error.ts';
import { RunEventChannel, type RunEvent, type RunStatus } from './run-events.ts';
import type { ToolRegistry } from './tool-registry.ts';
import type { SessionLock } from './session-lock.ts';
import type { AgentPermissions, PermissionApprover } from './permission-step.ts';
import type { TranscriptRecord, TranscriptWriter } from './transcript.ts';
import type { ObservedHookRun } from '../events/observed-hook-run.ts';
import type { HookRunCollector } from './step-runner.ts';
import { traceHookRun } from './run-telemetry.ts';
import type { LoopSpan, LoopTracer } from './tracer.ts';
import { isoTime } from './timestamp.ts';
import type { HookStepInfo, StepRunner } from './step-runner.ts';

/** The agent's options with every default applied. */
export interface AgentConfig {
  readonly model: LanguageModel;
  readonly tools: ToolRegistry | undefined;
  readonly hooks: AgentHook;
  /** Settings of every request: `settings` with `systemInstruction` folded in. */
  readonly settings: GenerationSettings | undefined;
  readonly agentName: string | undefined;
  readonly maxModelCalls: number;
  readonly stopContinuationsPerTurn: number;
  readonly invalidToolCallsPerTurn: number;
  readonly closingHookBudgetMs: number;
  /** The permission layer; `undefined`: every call runs (see `AgentPermissions`). */
  readonly permissions: AgentPermissions | undefined;
  /** Who answers permission prompts; `undefined`: nobody (headless, see `AgentOptions.approver`). */
  readonly approver: PermissionApprover | undefined;
  /** Where spans go; none by default (no span is built). */
  readonly tracer: LoopTracer | undefined;
  /** The `agent` tool's types and depth limit; `undefined`: no subagents. */
  readonly subagents: SubagentConfig | undefined;
  /** How deep this agent is nested: 0 for the main agent, 1 for its subagents, … */
  readonly depth: number;
  /**
   * The context budget as the embedder set it (`AgentOptions.maxContextTokens`, estimated
   * tokens); `undefined`: the window of this config's model. `contextBudget` derives the one
   * compaction uses, so a subagent on a model of its own gets that model's window.
   */
  readonly maxContextTokens: number | undefined;
  /** Keep hook payloads and unreviewed tool results in the transcript (`AgentOptions.recordPayloads`). */
  readonly recordPayloads: boolean;
  /** Executes model calls, tool calls and hook runs (`step-runner.ts`); `undefined`: directly. */
  readonly stepRunner: StepRunner | undefined;
}

/** What a session keeps between runs. */
export interface SessionState {
  readonly info: SessionInfo;
  /** With a step runner: the hook runs recorded, collected per hook step (see `step-runner.ts`). */
  readonly hookRuns?: HookRunCollector;
  /** The conversation: every message appended so far, in order (the transcript's messages). */
  readonly history: Message[];
  readonly transcript: TranscriptWriter;
  /** The session's lock, released when the session closes. */
  readonly lock: SessionLock;
  /** Prompts submitted while a run was active; each runs as the next turn. */
  readonly queue: string[];
  /** The last turn number used in this session. */
  turnCounter: number;
  /** SessionStart context waiting for the first prompt. */
  pendingContext: string | undefined;
  /** Reports raised before a run existed (SessionStart, resume warnings), emitted by the next run. */
  readonly pendingReports: HookReport[];
  /** The session's span, open from `openSession` to `close` (with a tracer). */
  readonly span: LoopSpan | undefined;
  /** What the last model call's usage says about the history's size (see `compaction.ts`). */
  contextUsage?: ContextUsage | undefined;
}

/** What a subagent's run takes from its parent's. */
export interface ChildRunOptions {
  readonly parent: RunState;
  readonly agent: SubagentIdentity;
  /** The child's own transcript. */
  readonly transcriptPath: string;
}

/**
 * Records a hook run outside any run (SessionStart, SessionEnd): in the transcript, and as a span
 * under the session's.
 */
export function recordSessionHookRun(
  config: AgentConfig,
  session: SessionState,
  observed: ObservedHookRun,
): void {
  session.hookRuns?.observe(observed);
  session.transcript.append({
    type: 'hook-run',
    turn: 0,
    modelCall: 0,
    run: observed,
    time: isoTime(observed.startTime),
  });
  if (config.tracer !== undefined && session.span !== undefined)
    traceHookRun(config.tracer, session.span, observed);
}

/** How a turn (and possibly the run) ended. */
export interface TurnEnd {
  readonly status: RunStatus;
  readonly reason?: string;
  readonly error?: Error;
  /** True when the whole run ends (a hook `stop`), not only this turn (a `deny`). */
  readonly endsRun: boolean;
  /** Set for a failed model answer, so StopFailure can report it. */
  readonly failure?: {
    readonly finishReason: FinishReason | undefined;
    readonly rawStopReason: string | undefined;
  };
}

/** The turn in progress. */
export interface TurnState {
  /** One-based turn number within the session. */
  readonly number: number;
  /** The prompt that opened the turn (as a UserPromptSubmit hook rewrote it, if one did). */
  prompt: string;
  /** History index of the message the next model call answers (prompt, feedback, continuation). */
  promptIndex: number;
  /** Stop continuations spent in this turn. */
  continuations: number;
  /** Invalid tool calls answered with their error in this turn (`invalidToolCallsPerTurn`). */
  invalidToolCalls: number;
  /** True once this turn compacted after a provider rejected a request as too long. */
  compactedAfterRejection: boolean;
  /** A Stop block's reason, waiting to continue the turn (dropped if the turn is cancelled first). */
  pendingContinuation: string | undefined;
  /**
   * True once a Stop hook completed for the current stretch of the turn: a cancel arriving now
   * fires no Interrupt (Stop and Interrupt are mutually exclusive ends). Reset when a
   * continuation starts.
   */
  stopCompleted: boolean;
}

const KIND_COUNT = STEP_EVENT_KINDS.length;

/** Which events the hook observes: it implements the method and `observes(kind)` is not false. */
export function observedKinds(hooks: AgentHook): Readonly<Record<HookEventKind, boolean>> {
  const table = {} as Record<HookEventKind, boolean>;
  for (let index = 0; index < KIND_COUNT; index++) {
    const kind = STEP_EVENT_KINDS[index] as HookEventKind;
    table[kind] = observesKind(hooks, kind);
  }
  return table;
}

/** True when the hook implements the method of `kind` and its `observes(kind)` is not false. */
export function observesKind(hooks: AgentHook, kind: HookEventKind): boolean {
  return typeof hooks[HOOK_METHOD[kind]] === 'function' && (hooks.observes?.(kind) ?? true);
}

/** The answer of the hook's method for `kind`. */
export type HookAnswer<Kind extends HookEventKind> = EventMap[Kind]['answer'];
/** The action of `kind`, once settled. */
export type HookAction<Kind extends HookEventKind> = Awaited<HookAnswer<Kind>>;

/**
 * Calls the hook's method for `kind` when the hook observes it, building the event only then;
 * `undefined` when it does not. The one guard every fire site goes through (`RunState.fire`,
 * `RunState.fireClosing`, the session's SessionStart and SessionEnd).
 */
export function callHook<Kind extends HookEventKind>(
  hooks: AgentHook,
  observed: boolean,
  kind: Kind,
  context: HookContext,
  event: () => EventMap[Kind]['event'],
): HookAnswer<Kind> | undefined {
  if (!observed) return undefined;
  const method = hooks[HOOK_METHOD[kind]] as
    ((context: HookContext, event: EventMap[Kind]['event']) => HookAnswer<Kind>) | undefined;
  return method?.call(hooks, context, event());
}

/** The name an event goes by in messages: its external name, else its kind. */
export function eventLabel(kind: HookEventKind): string {
  return EVENT_DEFINITIONS[kind].external?.name ?? kind;
}

export class RunState {
  readonly config: AgentConfig;
  readonly session: SessionState;
  readonly hooks: AgentHook;
  readonly observed: Readonly<Record<HookEventKind, boolean>>;
  readonly streaming: boolean;
  readonly controller = new AbortController();
  readonly signal: AbortSignal;
  readonly context: RunHookContext;
  readonly budget: ModelCallBudget;
  readonly events = new RunEventChannel();
  readonly #scratchpad = new Scratchpad();
  /** The model of the previous issued call in this run. */
  previousModel: LanguageModel | undefined;
  /** The text of the last accepted model answer. */
  lastAnswer = '';
  /** The turn currently running (0 between turns). */
  currentTurn = 0;
  /** When the model call in progress started (ms since the epoch); undefined between calls. */
  modelCallStart: number | undefined;
  /** The model the call in progress went to; undefined until called (or when a hook answered). */
  calledModel: LanguageModel | undefined;
  /** With a tracer: the spans open now, innermost last, that hook runs nest under. */
  turnSpan: LoopSpan | undefined;
  modelCallSpan: LoopSpan | undefined;
  /** With a tracer: the open tool-call spans by call id (tool calls run concurrently). */
  readonly toolSpans = new Map<string, LoopSpan>();
  /** Set when this run is a subagent's (see `subagent.ts`). */
  readonly child: ChildRunOptions | undefined;
  readonly #detach: (() => void) | undefined;

  /**
   * A run of `session`. With `child`, a subagent's run: it shares the parent's model-call budget,
   * its signal follows the parent's (cancelling the parent cancels it), its hook reports and hook
   * outcomes also go on the parent's event stream, and its context names the agent.
   */
  constructor(
    config: AgentConfig,
    session: SessionState,
    streaming: boolean,
    child?: ChildRunOptions,
  ) {
    this.config = config;
    this.session = session;
    this.hooks = config.hooks;
    this.observed = observedKinds(config.hooks);
    this.streaming = streaming;
    this.signal = this.controller.signal;
    this.child = child;
    if (child === undefined) {
      this.budget = new ModelCallBudget(config.maxModelCalls);
    } else {
      const parent = child.parent;
      this.budget = parent.budget;
      const forward = (): void => {
        this.controller.abort(parent.signal.reason);
      };
      if (parent.signal.aborted) forward();
      else parent.signal.addEventListener('abort', forward, { once: true });
      this.#detach = () => {
        parent.signal.removeEventListener('abort', forward);
      };
    }
    this.context = new RunHookContext({
      ...(child === undefined ? {} : { agent: child.agent }),
      isStreaming: streaming,
      ...(config.agentName === undefined ? {} : { agentName: config.agentName }),
      signal: this.signal,
      session: session.info,
      scratchpad: this.#scratchpad,
      report: (report) => {
        this.report(report);
      },
      recordHookRun: (observed) => {
        this.recordHookRun(observed);
      },
    });
  }

  /**
   * Records a hook run: a `hook-run` transcript record and, with a tracer, a span under the
   * innermost open span it belongs to (its tool call's, else the model call's, the turn's, the
   * session's).
   */
  recordHookRun(observed: ObservedHookRun): void {
    this.session.hookRuns?.observe(observed);
    // Leaves with the step's own next write rather than in a write of its own.
    this.session.transcript.appendDeferred({
      type: 'hook-run',
      turn: this.currentTurn,
      modelCall: this.budget.used,
      run: observed,
      time: isoTime(observed.startTime),
    });
    const tracer = this.config.tracer;
    if (tracer === undefined) return;
    const parent =
      (observed.toolCallId === undefined ? undefined : this.toolSpans.get(observed.toolCallId)) ??
      this.modelCallSpan ??
      this.turnSpan ??
      this.session.span;
    if (parent !== undefined) traceHookRun(tracer, parent, observed);
  }

  emit(event: RunEvent): void {
    const child = this.child;
    if (child === undefined) {
      this.events.push(event);
      return;
    }
    // A subagent's own events stay in its transcript; what hooks said reaches the parent's stream.
    if (event.type === 'hook-report' || event.type === 'hook') child.parent.emit(event);
  }

  /** Stops following the parent's signal (a subagent's run, once it ended). */
  detach(): void {
    this.#detach?.();
  }

  record(record: TranscriptRecord): void {
    this.session.transcript.append(record);
  }

  /** Appends a message to the history and the transcript. */
  appendMessage(message: Message): void {
    this.session.history.push(message);
    this.record({
      type: 'message',
      turn: this.currentTurn,
      message,
      time: isoTime(),
    });
  }

  /** Surfaces a hook message or warning: on the event stream and in the transcript. */
  report(report: HookReport): void {
    this.emit({ type: 'hook-report', report });
    this.record({ type: 'hook-report', report, time: isoTime() });
  }

  /** Reports a dispatched hook event and its combined outcome on the event stream. */
  hookOutcome(
    event: HookEventKind,
    action: { readonly kind: string; readonly reason?: string },
  ): void {
    this.emit(
      action.reason === undefined
        ? { type: 'hook', event, outcome: action.kind }
        : { type: 'hook', event, outcome: action.kind, reason: action.reason },
    );
  }

  /**
   * Fires `kind` through the run's hooks: when some hook observes it, builds the event, calls
   * the hook, awaits its answer no longer than the run lives (`settle`) and reports the outcome
   * on the event stream (`outcome` maps an answer without a `kind`, i.e. an invalid-tool-call
   * deferral, to what is reported). Resolves to the action. When no hook observes the event it
   * returns `undefined` at once, not a promise: nothing is built, called or reported, and a fire
   * site's `await` of it costs no async frame (a step fires about seven events no hook observes
   * in a plain run).
   */
  fire<Kind extends HookEventKind>(
    kind: Kind,
    event: () => EventMap[Kind]['event'],
    outcome: (action: HookAction<Kind>) => {
      readonly kind: string;
      readonly reason?: string;
    } = (action) => action as { readonly kind: string; readonly reason?: string },
  ): Promise<HookAction<Kind>> | undefined {
    const answer = this.callSync(kind, event);
    if (answer === undefined) return undefined;
    return this.#report(kind, answer, outcome);
  }

  /**
   * Calls the hook for `kind` when some hook observes it, and returns its answer as it is (not
   * awaited, not reported: `fire` does that; `modelSelection` answers synchronously);
   * `undefined` when none does. The transcript is committed first, as for every hook.
   */
  callSync<Kind extends HookEventKind>(
    kind: Kind,
    event: () => EventMap[Kind]['event'],
  ): HookAnswer<Kind> | undefined {
    if (!this.observed[kind]) return undefined;
    this.commitTranscripts();
    const steps = this.config.stepRunner;
    if (steps === undefined || kind === 'modelSelection')
      return callHook(this.hooks, true, kind, this.context, event);
    // A runner's answer is the hook's, settled (a journal replays it): the fire sites await it.
    return steps.runHook(this.#hookStep(kind), () =>
      callHook(this.hooks, true, kind, this.context, event),
    ) as HookAnswer<Kind> | undefined;
  }

  /** A hook step's info for the runner: its runs replay into this run's transcript. */
  #hookStep(kind: HookEventKind): HookStepInfo {
    const collector = this.session.hookRuns;
    return collector === undefined
      ? { event: kind, turn: this.currentTurn }
      : {
          event: kind,
          turn: this.currentTurn,
          hookRuns: collector.log((observed) => {
            this.recordHookRun(observed);
          }),
        };
  }

  /**
   * Writes this run's pending transcript records (and, for a subagent, its parents'): called
   * before any hook runs, so a hook that reads `transcript_path` finds every record up to its
   * event (Claude Code's Stop hooks famously read a transcript one message behind). Cheap when
   * nothing is pending; the loop's own bookkeeping is otherwise written at the end of the
   * event-loop turn, while the next model call is under way.
   */
  commitTranscripts(): void {
    this.session.transcript.commit();
    this.child?.parent.commitTranscripts();
  }

  async #report<Kind extends HookEventKind>(
    kind: Kind,
    answer: HookAnswer<Kind>,
    outcome: (action: HookAction<Kind>) => { readonly kind: string; readonly reason?: string },
  ): Promise<HookAction<Kind>> {
    const action = (await this.settle(answer)) as HookAction<Kind>;
    this.hookOutcome(kind, outcome(action));
    return action;
  }

  /**
   * Fires a closing event (Interrupt, StopFailure): with a fresh context whose signal fires after
   * the closing-hook budget (the run's own may have fired), awaited within that budget; a hook
   * that fails or does not answer in time is reported as a warning, never thrown.
   */
  async fireClosing<Kind extends HookEventKind>(
    kind: Kind,
    event: () => EventMap[Kind]['event'],
  ): Promise<void> {
    if (!this.observed[kind]) return;
    this.commitTranscripts();
    const context = this.closingContext();
    const steps = this.config.stepRunner;
    const answer =
      steps === undefined
        ? callHook(this.hooks, true, kind, context, event)
        : steps.runHook(this.#hookStep(kind), () =>
            callHook(this.hooks, true, kind, context, event),
          );
    if (answer === undefined) return;
    const settled = await settleWithinBudget(answer, context.signal);
    if (settled.ok)
      this.hookOutcome(kind, settled.value as { readonly kind: string; readonly reason?: string });
    else
      this.report({
        level: 'warning',
        text: `the ${eventLabel(kind)} hook did not complete: ${settled.error.message}`,
        event: kind,
      });
  }

  /**
   * The hook's method for `kind`, bound, when it observes the event (else `undefined`): for the
   * per-delta fire sites of a stream, which look it up once per model call and call it directly.
   * Each call commits the transcript first, as every hook call does (nothing is pending between
   * deltas, so that is one check).
   */
  handler<Kind extends HookEventKind>(
    kind: Kind,
  ): ((context: HookContext, event: EventMap[Kind]['event']) => HookAnswer<Kind>) | undefined {
    if (!this.observed[kind]) return undefined;
    const method = this.hooks[HOOK_METHOD[kind]] as
      ((context: HookContext, event: EventMap[Kind]['event']) => HookAnswer<Kind>) | undefined;
    if (method === undefined) return undefined;
    const hooks = this.hooks;
    return (context, event) => {
      this.commitTranscripts();
      return method.call(hooks, context, event);
    };
  }

  /** Throws a `CancelledError` when the run was cancelled. */
  throwIfCancelled(): void {
    if (this.signal.aborted) throw new CancelledError(this.cancelReason());
  }

  cancelReason(): string {
    const reason: unknown = this.signal.reason;
    return typeof reason === 'string' ? reason : 'the run was cancelled';
  }

  /**
   * Awaits a hook's (or tool's) pending answer, but no longer than the run lives: when the run is
   * cancelled first, rejects with `CancelledError` and the late answer is discarded.
   */
  settle<T>(value: Awaitable<T>): Promise<T> {
    if (!isPromiseLike(value)) return Promise.resolve(value);
    if (this.signal.aborted) return Promise.reject(new CancelledError(this.cancelReason()));
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        reject(new CancelledError(this.cancelReason()));
      };
      const waiters = this.#cancelWaiters();
      waiters.add(onAbort);
      value.then(
        (result) => {
          waiters.delete(onAbort);
          resolve(result);
        },
        (error: unknown) => {
          waiters.delete(onAbort);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  #waiters: Set<() => void> | undefined;

  /**
   * What `settle` rejects when the run is cancelled: one `abort` listener for the run, added on
   * first use, instead of one added and removed per settled answer (an `EventTarget` listener
   * costs microseconds each way, and every tool call and hook answer is settled).
   */
  #cancelWaiters(): Set<() => void> {
    if (this.#waiters !== undefined) return this.#waiters;
    const waiters = new Set<() => void>();
    this.#waiters = waiters;
    this.signal.addEventListener(
      'abort',
      () => {
        for (const waiter of [...waiters]) waiter();
        waiters.clear();
      },
      { once: true },
    );
    return waiters;
  }

  /**
   * A context for the hooks that run after cancellation (Interrupt) or at the end: same run and
   * scratchpad, but a fresh signal that fires after the closing-hook budget.
   */
  closingContext(): RunHookContext {
    const context = new RunHookContext({
      ...(this.child === undefined ? {} : { agent: this.child.agent }),
      runId: this.context.runId,
      isStreaming: this.streaming,
      ...(this.config.agentName === undefined ? {} : { agentName: this.config.agentName }),
      signal: AbortSignal.timeout(this.config.closingHookBudgetMs),
      session: this.session.info,
      scratchpad: this.#scratchpad,
      report: (report) => {
        this.report(report);
      },
      recordHookRun: (observed) => {
        this.recordHookRun(observed);
      },
    });
    context.setModelCall(this.context.modelCall);
    return context;
  }
}

/**
 * Awaits a closing hook (Interrupt, SessionEnd) within its context's budget: past the budget the
 * answer is no longer awaited. Errors are returned, not thrown.
 */
export async function settleWithinBudget<T>(
  value: Awaitable<T>,
  signal: AbortSignal,
): Promise<
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: Error }
> {
  if (!isPromiseLike(value)) return { ok: true, value };
  try {
    const result = await new Promise<T>((resolve, reject) => {
      if (signal.aborted) {
        reject(new Error('the hook did not answer within its budget'));
        return;
      }
      const onAbort = (): void => {
        reject(new Error('the hook did not answer within its budget'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      value.then(
        (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
    return { ok: true, value: result };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
}
