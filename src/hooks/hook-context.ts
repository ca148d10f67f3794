import { randomUUID } from 'node:crypto';
import type { HookContext, HookReport, SessionInfo } from '../events/context.ts';
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
  /** Default: a fresh, empty scratchpad (one per run). */
  readonly scratchpad?: Scratchpad;
  /** Receives hook messages and warnings. Default: dropped. */
  readonly report?: (report: HookReport) => void;
  /** Initial turn. Default: 0 (before the first model call). */
  readonly turn?: number;
  /** Receives every hook run recorded through the context. Default: dropped. */
  readonly recordHookRun?: (run: ObservedHookRun) => void;
}

/**
 * The loop's `HookContext`: fixed run identity plus a turn the loop advances with `setTurn`
 * (hooks only see the read-only `HookContext` view).
 */
export class RunHookContext implements HookContext {
  readonly runId: string;
  readonly isStreaming: boolean;
  readonly agentName: string | undefined;
  readonly signal: AbortSignal;
  readonly session: SessionInfo;
  readonly scratchpad: Scratchpad;
  readonly #report: (report: HookReport) => void;
  readonly #recordHookRun: ((run: ObservedHookRun) => void) | undefined;
  #turn: number;

  constructor(options: HookContextOptions = {}) {
    this.runId = options.runId ?? randomUUID();
    this.isStreaming = options.isStreaming ?? false;
    this.agentName = options.agentName;
    this.signal = options.signal ?? new AbortController().signal;
    this.session = options.session ?? {
      sessionId: this.runId,
      transcriptPath: '',
      cwd: process.cwd(),
    };
    this.scratchpad = options.scratchpad ?? new Scratchpad();
    this.#report = options.report ?? ignoreReport;
    this.#recordHookRun = options.recordHookRun;
    this.#turn = options.turn ?? 0;
  }

  /** One-based model-call index; 0 before the first model call. */
  get turn(): number {
    return this.#turn;
  }

  /** Advances the run to `turn` (one-based model-call index). */
  setTurn(turn: number): void {
    if (!Number.isInteger(turn) || turn < 0) {
      throw new RangeError(`HookContext turn must be a non-negative integer, got ${String(turn)}`);
    }
    this.#turn = turn;
  }

  report(report: HookReport): void {
    this.#report(report);
  }

  recordHookRun(run: ObservedHookRun): void {
    this.#recordHookRun?.(run);
  }
}

function ignoreReport(): void {
  // Reports are dropped unless the run supplies a sink.
}

/** Creates the context of one run: a generated run id, a fresh scratchpad, turn 0. */
export function createHookContext(options: HookContextOptions = {}): RunHookContext {
  return new RunHookContext(options);
}
