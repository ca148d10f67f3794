/**
 * A session: one conversation, its transcript, and the runs made in it (one at a time).
 */
import type { HookStepInfo } from './step-runner.ts';
import { RunHookContext } from '../hooks/hook-context.ts';
import type { HookReport } from '../events/context.ts';
import type { SessionEndReason } from '../events/index.ts';
import { LoopError } from './loop-error.ts';
import type { RunEvent, RunHandle, RunResult, RunStatus } from './run-events.ts';
import {
  recordSessionHookRun,
  RunState,
  callHook,
  observesKind,
  settleWithinBudget,
  type AgentConfig,
  type SessionState,
  type TurnEnd,
} from './run-state.ts';
import { runTurn } from './turn-runner.ts';
import { activeTracer } from './tracer.ts';
import { compactHistory, nextRequestTokens, type CompactionOutcome } from './compact-step.ts';
import type { Message } from '../content/index.ts';
import { isoTime } from './timestamp.ts';

/** Options of `Session.compact`. */
export interface CompactOptions {
  /** Instructions for the summary (hooks' PreCompact instructions are added after them). */
  readonly instructions?: string;
  /** Cancels the compaction (the summary's model call). */
  readonly signal?: AbortSignal;
  /** Receives hook messages and warnings raised meanwhile. */
  readonly onReport?: (report: HookReport) => void;
}

/** Options of one run. */
export interface RunOptions {
  /** Cancels the run when it fires (as `RunHandle.cancel` does). */
  readonly signal?: AbortSignal;
  /** Drive the streaming surface (`LanguageModel.stream`, delta events and hooks). Default false. */
  readonly streaming?: boolean;
}

const now = (): string => isoTime();

/**
 * One conversation. `run` starts a run (one at a time); `enqueue` submits a prompt while a run is
 * active (it runs as the run's next turn); `close` ends the session (SessionEnd).
 */
export class Session {
  readonly #config: AgentConfig;
  readonly #state: SessionState;
  readonly #source: 'startup' | 'resume';
  #active: { readonly run: RunState; readonly result: Promise<RunResult> } | undefined;
  #closed = false;

  /** @internal Created by `Agent.openSession`. */
  constructor(config: AgentConfig, state: SessionState, source: 'startup' | 'resume') {
    this.#config = config;
    this.#state = state;
    this.#source = source;
  }

  get sessionId(): string {
    return this.#state.info.sessionId;
  }

  /** Absolute path of the JSONL transcript (the hooks' `transcript_path`). */
  get transcriptPath(): string {
    return this.#state.info.transcriptPath;
  }

  /** The conversation so far (a live read-only view). */
  get history(): readonly Message[] {
    return this.#state.history;
  }

  /** True while a run is active. */
  get isRunning(): boolean {
    return this.#active !== undefined;
  }

  /**
   * Starts a run with `prompt` as its first turn; queued prompts run as further turns of the same
   * run. Throws `LoopError` (`session_busy`) while another run is active (use `enqueue`), or
   * (`session_closed`) after `close`.
   */
  run(prompt: string, options: RunOptions = {}): RunHandle {
    if (this.#closed) {
      throw new LoopError(
        'session_closed',
        `Session ${this.sessionId} is closed; open a new session (or resume this one) to run again.`,
      );
    }
    if (this.#active !== undefined) {
      throw new LoopError(
        'session_busy',
        `Session ${this.sessionId} is already running; submit the prompt with session.enqueue(prompt) to run it next.`,
      );
    }
    // The tracer is asked once per run whether it records at all (see `LoopTracer.enabled`).
    const config = this.#config;
    const tracer = activeTracer(config.tracer);
    const run = new RunState(
      tracer === config.tracer ? config : { ...config, tracer },
      this.#state,
      options.streaming ?? false,
    );
    const external = options.signal;
    if (external !== undefined) {
      const forward = (): void => {
        run.controller.abort(
          typeof external.reason === 'string' ? external.reason : 'the run was cancelled',
        );
      };
      if (external.aborted) forward();
      else external.addEventListener('abort', forward, { once: true });
      run.signal.addEventListener('abort', () => {
        external.removeEventListener('abort', forward);
      });
    }
    const result = this.#execute(run, prompt);
    this.#active = { run, result };
    return {
      result,
      signal: run.signal,
      cancel: (reason?: string) => {
        run.controller.abort(reason ?? 'the run was cancelled');
      },
      [Symbol.asyncIterator]: (): AsyncIterator<RunEvent> => run.events[Symbol.asyncIterator](),
    };
  }

  /**
   * Submits a prompt while a run is active: it runs as the next turn of that run, and makes a
   * Stop continuation of the current turn moot. Returns false (nothing queued) when no run is
   * active: start one with `run`.
   */
  enqueue(prompt: string): boolean {
    if (this.#active === undefined || this.#closed) return false;
    this.#state.queue.push(prompt);
    return true;
  }

  async #execute(run: RunState, firstPrompt: string): Promise<RunResult> {
    const state = this.#state;
    // Let the caller attach its iterator before anything happens.
    await Promise.resolve();
    run.emit({
      type: 'session',
      sessionId: this.sessionId,
      transcriptPath: this.transcriptPath,
      source: this.#source,
    });
    for (const report of state.pendingReports.splice(0)) run.emit({ type: 'hook-report', report });
    let end: TurnEnd = { status: 'completed', endsRun: false };
    let prompt: string | undefined = firstPrompt;
    while (prompt !== undefined) {
      end = await runTurn(run, prompt);
      if (end.endsRun || end.status === 'cancelled') break;
      prompt = state.queue.shift();
      if (prompt !== undefined && run.signal.aborted) {
        end = { status: 'cancelled', reason: run.cancelReason(), endsRun: true };
        state.queue.unshift(prompt);
        break;
      }
    }
    const unprocessed = state.queue.splice(0);
    // A run whose records were not all written never reports itself completed: it failed (the
    // reason says why, e.g. "disk full: …"), and the session resumes from what was written.
    state.transcript.commit();
    const lost = state.transcript.failure;
    if (lost !== undefined && end.status !== 'failed')
      end = { status: 'failed', reason: lost.message, error: lost, endsRun: true };
    else if (lost !== undefined && end.error !== lost)
      run.report({ level: 'warning', text: lost.message });
    const status: RunStatus = end.status;
    const result: RunResult = {
      sessionId: this.sessionId,
      status,
      result: run.lastAnswer,
      modelCalls: run.budget.used,
      transcriptPath: this.transcriptPath,
      ...(end.reason === undefined ? {} : { reason: end.reason }),
      ...(end.error === undefined ? {} : { error: end.error }),
      ...(unprocessed.length > 0 ? { unprocessedPrompts: unprocessed } : {}),
    };
    run.emit({ type: 'final', result });
    run.events.close();
    this.#active = undefined;
    return result;
  }

  /**
   * Compacts the history now (trigger `manual`): PreCompact (its hooks' instructions join
   * `instructions`), the model's summary of the older messages, the `compaction` transcript
   * record, PostCompact; see `compact-step.ts`. The summary is one model call. Throws `LoopError`
   * (`session_busy`) while a run is active, (`session_closed`) after `close`. Hook messages and
   * warnings go to `onReport` (and the transcript).
   */
  async compact(options: CompactOptions = {}): Promise<CompactionOutcome> {
    if (this.#closed) {
      throw new LoopError(
        'session_closed',
        `Session ${this.sessionId} is closed; resume it to compact it.`,
      );
    }
    if (this.#active !== undefined) {
      throw new LoopError(
        'session_busy',
        `Session ${this.sessionId} is running; compact it once the run has ended.`,
      );
    }
    const run = new RunState(this.#config, this.#state, false);
    const external = options.signal;
    const forward = (): void => {
      run.controller.abort('the compaction was cancelled');
    };
    if (external?.aborted === true) forward();
    else external?.addEventListener('abort', forward, { once: true });
    for (const report of this.#state.pendingReports.splice(0)) options.onReport?.(report);
    try {
      return await compactHistory(
        run,
        undefined,
        'manual',
        options.instructions,
        nextRequestTokens(run),
      );
    } finally {
      external?.removeEventListener('abort', forward);
      run.events.close();
      for await (const event of run.events)
        if (event.type === 'hook-report') options.onReport?.(event.report);
      await this.#state.transcript.flush();
    }
  }

  /**
   * Closes the session: cancels an active run (and waits for it), fires SessionEnd (awaited
   * within the closing-hook budget, 1.5 s by default), records the end and closes the
   * transcript. Closing twice does nothing.
   */
  async close(reason: SessionEndReason = 'other'): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const active = this.#active;
    if (active !== undefined) {
      active.run.controller.abort('the session was closed');
      await active.result;
    }
    const hooks = this.#config.hooks;
    if (observesKind(hooks, 'sessionEnd')) {
      const signal = AbortSignal.timeout(this.#config.closingHookBudgetMs);
      const context = this.#sessionContext(signal);
      // As before every hook: the transcript it may read holds every record so far.
      this.#state.transcript.commit();
      const steps = this.#config.stepRunner;
      const fire = () => callHook(hooks, true, 'sessionEnd', context, () => ({ reason }));
      const answer =
        steps === undefined ? fire() : steps.runHook(this.#hookStep('sessionEnd'), fire);
      const settled = await settleWithinBudget(answer, signal);
      if (!settled.ok) {
        this.#recordReport({
          level: 'warning',
          text: `the SessionEnd hook did not complete: ${settled.error.message}`,
          event: 'sessionEnd',
        });
      }
    }
    this.#state.transcript.append({ type: 'session-end', reason, time: now() });
    await this.#state.transcript.close();
    await this.#state.lock.release();
    const span = this.#state.span;
    if (span !== undefined) {
      span.setAttributes({ 'hookwire.session.end_reason': reason });
      span.end();
    }
  }

  /** @internal Fires SessionStart; its context waits for the first prompt. */
  async start(): Promise<void> {
    const hooks = this.#config.hooks;
    if (!observesKind(hooks, 'sessionStart')) return;
    const context = this.#sessionContext(new AbortController().signal);
    this.#state.transcript.commit();
    const fire = () =>
      callHook(hooks, true, 'sessionStart', context, () => ({ source: this.#source }));
    const steps = this.#config.stepRunner;
    const action = await (steps === undefined
      ? fire()
      : steps.runHook(this.#hookStep('sessionStart'), fire));
    if (action === undefined) return;
    if (action.kind === 'stop') {
      this.#recordReport({
        level: 'warning',
        text: `a SessionStart hook asked to stop ("${action.reason}"); SessionStart is advisory, so the session opens`,
        event: 'sessionStart',
      });
    } else if (action.additionalContext !== undefined && action.additionalContext !== '') {
      this.#state.pendingContext = action.additionalContext;
    }
  }

  /** A session hook step's info for the runner: its replayed runs go to the transcript. */
  #hookStep(event: 'sessionStart' | 'sessionEnd'): HookStepInfo {
    const collector = this.#state.hookRuns;
    return collector === undefined
      ? { event, turn: 0 }
      : {
          event,
          turn: 0,
          hookRuns: collector.log((observed) => {
            recordSessionHookRun(this.#config, this.#state, observed);
          }),
        };
  }

  #sessionContext(signal: AbortSignal): RunHookContext {
    return new RunHookContext({
      isStreaming: false,
      ...(this.#config.agentName === undefined ? {} : { agentName: this.#config.agentName }),
      signal,
      session: this.#state.info,
      report: (report) => {
        this.#recordReport(report);
      },
      recordHookRun: (observed) => {
        recordSessionHookRun(this.#config, this.#state, observed);
      },
    });
  }

  #recordReport(report: HookReport): void {
    this.#state.pendingReports.push(report);
    this.#state.transcript.append({ type: 'hook-report', report, time: now() });
  }
}
