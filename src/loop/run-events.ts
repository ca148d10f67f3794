/**
 * What a run reports while it goes (`RunEvent`, in order, through the `RunHandle`) and how it
 * ended (`RunResult`).
 */
import type { FinishReason, Message, Usage } from '../content/index.ts';
import type { HookEventKind } from '../events/index.ts';
import type { HookReport } from '../events/context.ts';

/**
 * How a run (or one of its turns) ended:
 * - `completed`: the model answered without tool calls and no hook stopped it;
 * - `stopped`: a hook stopped the run or denied the turn (`reason` says which and why);
 * - `failed`: the model failed (provider error, safety filter, refusal), an invalid tool call was
 *   not resolved, or a hook threw (`error` holds it);
 * - `cancelled`: the run's signal was aborted (`RunHandle.cancel`, or the `signal` option);
 * - `budget_exhausted`: the run reached `maxModelCalls`.
 */
export type RunStatus = 'completed' | 'stopped' | 'failed' | 'cancelled' | 'budget_exhausted';

/** The outcome of one run. */
export interface RunResult {
  readonly sessionId: string;
  readonly status: RunStatus;
  /** The final answer: the text of the last accepted model answer of the run (`''` if none). */
  readonly result: string;
  /** Model calls the run made (retries and Stop continuations included). */
  readonly modelCalls: number;
  readonly transcriptPath: string;
  /** Why the run did not complete, when it did not. */
  readonly reason?: string;
  /** The error of a `failed` run. */
  readonly error?: Error;
  /** Prompts queued with `Session.enqueue` that never ran because the run ended first. */
  readonly unprocessedPrompts?: readonly string[];
}

/**
 * One event of a running run, in the order things happened. Deltas (`text-delta`,
 * `reasoning-delta`, `tool-call-delta`) are provisional: when a model turn is retried, a
 * `model-turn-retried` event says so and the deltas since the last `step-start` belong to the
 * rejected attempt. `model-response` carries the accepted answer.
 */
export type RunEvent =
  | {
      readonly type: 'session';
      readonly sessionId: string;
      readonly transcriptPath: string;
      /** `resume` when the session continues an earlier transcript. */
      readonly source: 'startup' | 'resume';
    }
  | { readonly type: 'turn-start'; readonly turn: number; readonly prompt: string }
  | {
      readonly type: 'turn-end';
      readonly turn: number;
      readonly status: RunStatus;
      readonly result: string;
      readonly reason?: string;
    }
  | { readonly type: 'step-start'; readonly turn: number; readonly modelCall: number }
  | { readonly type: 'text-delta'; readonly modelCall: number; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly modelCall: number; readonly text: string }
  | {
      readonly type: 'tool-call-delta';
      readonly modelCall: number;
      readonly index: number;
      readonly toolCallId?: string;
      readonly toolName?: string;
      readonly argumentsDelta: string;
    }
  | {
      readonly type: 'model-turn-retried';
      readonly modelCall: number;
      /** `repeat`: the answer was discarded; `feedback`: kept, with corrective feedback after it. */
      readonly retry: 'repeat' | 'feedback';
    }
  | {
      readonly type: 'model-response';
      readonly modelCall: number;
      readonly message: Message;
      readonly finishReason: FinishReason | undefined;
      readonly rawStopReason: string | undefined;
      readonly usage: Usage | undefined;
      /** True when a hook answered instead of the model (`CompletionCallAction.respond`). */
      readonly synthetic: boolean;
    }
  | {
      readonly type: 'tool-call';
      readonly toolCallId: string;
      readonly toolName: string;
      /** Effective arguments, after hook rewrites. */
      readonly args: unknown;
    }
  | {
      readonly type: 'tool-result';
      readonly toolCallId: string;
      readonly toolName: string;
      /** What the model sees (after hook rewrites). */
      readonly result: unknown;
      readonly error?: string;
      /** True when the tool did not run (a hook skipped it, or the call was invalid). */
      readonly skipped: boolean;
    }
  | {
      /** A hook event was dispatched to hooks that observe it (not emitted for deltas). */
      readonly type: 'hook';
      readonly event: HookEventKind;
      /** The combined action's `kind` (`continue`, `block`, `skip`, …). */
      readonly outcome: string;
      readonly reason?: string;
    }
  | { readonly type: 'hook-report'; readonly report: HookReport }
  /** The `agent` call `toolCallId` started a subagent; its transcript is `transcriptPath`. */
  | {
      readonly type: 'subagent-start';
      readonly toolCallId: string;
      readonly agentId: string;
      readonly agentType: string;
      readonly transcriptPath: string;
    }
  /** A subagent ended; `result` is its final answer (the call's result when it completed). */
  | {
      readonly type: 'subagent-end';
      readonly toolCallId: string;
      readonly agentId: string;
      readonly status: RunStatus;
      readonly result: string;
    }
  /** The history was compacted (see `compact-step.ts`). Token counts are estimates. */
  | {
      readonly type: 'compaction';
      readonly trigger: 'auto' | 'manual';
      readonly summarizedMessages: number;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
    }
  | { readonly type: 'final'; readonly result: RunResult };

/**
 * A running run: iterate it for its events (once; events are buffered from the start, so a
 * late consumer misses nothing), await `result` for its outcome, or `cancel()` it.
 */
export interface RunHandle extends AsyncIterable<RunEvent> {
  readonly result: Promise<RunResult>;
  /** Aborts the run: model call, tools and hooks see the signal; the run ends `cancelled`. */
  cancel(reason?: string): void;
  /** The run's cancellation signal. */
  readonly signal: AbortSignal;
}

/**
 * An unbounded single-consumer queue of run events. Pushing never waits (the loop never blocks
 * on a slow consumer); events wait in the buffer until read.
 */
export class RunEventChannel implements AsyncIterable<RunEvent> {
  #buffer: RunEvent[] = [];
  #head = 0;
  #closed = false;
  #waiter: ((result: IteratorResult<RunEvent>) => void) | undefined;
  #iterating = false;

  push(event: RunEvent): void {
    if (this.#closed) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ value: event, done: false });
      return;
    }
    this.#buffer.push(event);
  }

  close(): void {
    this.#closed = true;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    if (this.#iterating) throw new Error('A run handle can be iterated only once.');
    this.#iterating = true;
    return {
      next: (): Promise<IteratorResult<RunEvent>> => {
        if (this.#head < this.#buffer.length) {
          const event = this.#buffer[this.#head++] as RunEvent;
          if (this.#head === this.#buffer.length) {
            this.#buffer = [];
            this.#head = 0;
          }
          return Promise.resolve({ value: event, done: false });
        }
        if (this.#closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.#waiter = resolve));
      },
      return: (): Promise<IteratorResult<RunEvent>> => {
        this.#buffer = [];
        this.#head = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
