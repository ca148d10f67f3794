import { randomUUID } from '../content/random-id.ts';
import type { HookContext, HookReport, SessionInfo, SubagentIdentity } from '../events/context.ts';
import type { ObservedHookRun } from '../events/observed-hook-run.ts';
import { Scratchpad } from '../events/scratchpad.ts';

/** Options of `createHookContext`; every field has a default suitable for tests and one-off runs. */
export interface HookContextOptions {
  /** Default: a fresh `crypto.randomUUID()`. */
  readonly runId?: string;
  /** Default: `false` (blocking surface). */
  readonly isStreaming?: boolean;
  /** Default: `undefined`. */
  readonly agentName?: string;
  /** The run's cancellation signal. Default: a signal that never fires. */
  readonly signal?: AbortSignal;
  /** Default: session id = run id, empty transcript path, `process.cwd()`. */
  readonly session?: SessionInfo;
  /** The subagent the run is, when it is one. Default: none (the main loop). */
  readonly agent?: SubagentIdentity;
  /** Default: a fresh, empty scratchpad (one per run). */
  readonly scratchpad?: Scratchpad;
  /** Receives hook messages and warnings. Default: dropped. */
  readonly report?: (report: HookReport) => void;
  /** Initial model-call index. Default: 0 (before the first model call). */
  readonly modelCall?: number;
  /** @deprecated The initial model-call index under its first-release name; use `modelCall`. */
  readonly turn?: number;
  /** Receives every hook run recorded through the context. Default: dropped. */
  readonly recordHookRun?: (run: ObservedHookRun) => void;
}

/**
 * The loop's `HookContext`: fixed run identity plus the model-call index the loop advances with
 * `setModelCall`
 * (hooks only see the read-only `HookContext` view).
 */
export class RunHookContext implements HookContext {
  #runId: string | undefined;
  readonly isStreaming: boolean;
  readonly agentName: string | undefined;
  readonly signal: AbortSignal;
  readonly session: SessionInfo;
  readonly agent: SubagentIdentity | undefined;
  readonly scratchpad: Scratchpad;
  readonly #report: (report: HookReport) => void;
  readonly #recordHookRun: ((run: ObservedHookRun) => void) | undefined;
  #modelCall: number;

  constructor(options: HookContextOptions = {}) {
    this.#runId = options.runId;
    this.isStreaming = options.isStreaming ?? false;
    this.agentName = options.agentName;
    this.signal = options.signal ?? new AbortController().signal;
    this.session = options.session ?? {
      sessionId: this.runId,
      transcriptPath: '',
      cwd: process.cwd(),
    };
    this.agent = options.agent;
    this.scratchpad = options.scratchpad ?? new Scratchpad();
    this.#report = options.report ?? ignoreReport;
    this.#recordHookRun = options.recordHookRun;
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the first release's name, still filled in
    this.#modelCall = options.modelCall ?? options.turn ?? 0;
  }

  /** The run's id, drawn when first read (a run no hook looks at never needs one). */
  get runId(): string {
    return (this.#runId ??= randomUUID());
  }

  /** One-based model-call index within the run; 0 before the first model call. */
  get modelCall(): number {
    return this.#modelCall;
  }

  /** @deprecated The same number as `modelCall`; use `modelCall`. */
  get turn(): number {
    return this.#modelCall;
  }

  /** Advances the run to model call `modelCall` (one-based). */
  setModelCall(modelCall: number): void {
    if (!Number.isInteger(modelCall) || modelCall < 0) {
      throw new RangeError(
        `HookContext modelCall must be a non-negative integer, got ${String(modelCall)}`,
      );
    }
    this.#modelCall = modelCall;
  }

  /** @deprecated Use `setModelCall`. */
  setTurn(turn: number): void {
    this.setModelCall(turn);
  }

  report(report: HookReport): void {
    this.#report(report);
  }

  recordHookRun(run: ObservedHookRun): void {
    this.#recordHookRun?.(run);
  }

  /** True when the run records hook runs (a `recordHookRun` sink was given). */
  get recordsHookRuns(): boolean {
    return this.#recordHookRun !== undefined;
  }
}

function ignoreReport(): void {
  // Reports are dropped unless the run supplies a sink.
}

/** Creates the context of one run: a generated run id, a fresh scratchpad, model call 0. */
export function createHookContext(options: HookContextOptions = {}): RunHookContext {
  return new RunHookContext(options);
}
