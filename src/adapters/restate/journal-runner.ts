/**
 * The durable step runner: each model call, tool call and hook run of a session turn is journaled
 * in the invocation's Restate journal, as `ctx.run` entries, and a step that completed is replayed
 * from the journal after a crash, never run again. A step's outcome is journaled as a JSON
 * envelope (`{ value }` or `{ error }`), so a failing tool or model is an outcome, not a retry.
 *
 * **Entries.** Each journal entry costs a round trip to restate-server, which persists it (an
 * fsync) before it answers, so steps share entries where that keeps every guarantee. An entry
 * is named after its first step (`model 3 (turn 1)`, `tool 2 shell call_ab`, `hook 7 toolCall`;
 * the number counts that kind of step within the invocation, and the loop issues its steps in
 * one order, see `loop/step-runner.ts`) and holds the outcomes of its steps, in order:
 * - a **model call** and a **`rerun` tool call** run again harmlessly, so they open an entry or
 *   join the open one (opened less than `ENTRY_JOIN_WINDOW_MS` ago); the loop gets each outcome
 *   as soon as the step ends;
 * - a **hook fire** (its hooks may have effects: commands, HTTP calls) joins the open entry,
 *   which it closes: the loop gets its answer once the entry is persisted, so no later step (a
 *   hook, a tool) has an effect before the fire is on record. A fire's hooks never run before an
 *   earlier fire is on record;
 * - a **`report` tool call** starts only once every earlier entry is persisted, and is an entry
 *   of its own; the model calls and `rerun` tools after it run while Restate persists it, and the
 *   next entry, which holds them first, opens once it is persisted (a hook fire, the next
 *   `report` tool, the turn's end wait for that);
 * - the turn's last open entry is closed by `finish()`, which does not wait for Restate's answer:
 *   the handler's state and output that follow it in the invocation's stream are persisted
 *   after it.
 * A crash before an entry is persisted runs all of its steps again: the model calls and `rerun`
 * tools (the model may answer differently then) and the hook fire that closes it (it had not
 * answered on record, so it runs again, as a fire interrupted mid-way always did).
 *
 * **Recovery of a running tool.** A `rerun` tool without a journaled outcome runs again. A
 * `report` tool needs to know whether an earlier attempt may have started it: the entry before it
 * was persisted before it started, so when that entry was replayed from the journal (it comes from
 * an earlier attempt) and the tool's own outcome is not journaled, that attempt may have been
 * running it when it died, and its outcome is the "interrupted" error. When the entry before it
 * was written by this attempt, no earlier attempt got that far, and the tool runs. (Only when a
 * `report` tool is an invocation's first step, which the loop never does, a `… started` marker
 * holding the attempt's id is journaled first, as before.)
 *
 * The runner expects its steps one at a time (the loop's order with a runner); Restate's SDK lets
 * one journal promise be awaited at a time, and an open entry is such a promise.
 */
import type { ObjectContext, RestatePromise } from '@restatedev/restate-sdk';
import { CancelledError as RestateCancelled } from '@restatedev/restate-sdk';
import type { ModelResponse } from '../../content/index.ts';
import type { Awaitable, ObservedHookRun } from '../../events/index.ts';
import type { HookStepInfo, ModelStepInfo, StepRunner, ToolStepInfo } from '../../loop/index.ts';
import type { RecoveryPolicy } from './recovery.ts';

/** A step's journaled outcome. */
type Outcome =
  | { readonly value: unknown; readonly runs?: unknown }
  | { readonly error: { readonly message: string; readonly name: string } };

/** One step's record in a journal entry. */
interface StepRecord {
  readonly step: string;
  readonly outcome: Outcome;
}

/**
 * How a step shares entries: `safe` steps run again harmlessly, so they open an entry or join the
 * open one; a `closing` step joins the open entry (or opens one) and closes it, and its caller
 * waits until Restate has persisted it. (A `report` tool is a closing step that first closes the
 * open entry, so it is alone in its entry.)
 */
type StepKind = 'safe' | 'closing';

interface Step {
  readonly name: string;
  readonly kind: StepKind;
  /**
   * A closing step whose entry's persistence is awaited only when the next entry needs it: the
   * safe steps after it run meanwhile (a `report` tool, whose entry is alone).
   */
  readonly lateAck?: boolean;
  /** Runs the step; never throws (errors are outcomes). */
  readonly execute: () => Promise<Outcome>;
}

/**
 * How long an entry stays open to later steps, in ms. Restate hears nothing from an attempt while
 * an entry is open (its steps run inside one `ctx.run`), and suspends, then aborts, an attempt
 * that stays silent past its inactivity timeout (1 minute by default): a step opens a new entry
 * instead of joining one older than this, so a turn of many quick steps stays audible. Joining
 * saves a round trip (milliseconds), which matters only for steps this quick anyway.
 */
export const ENTRY_JOIN_WINDOW_MS = 10_000;

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

/** Resolves once the SDK has proposed an action's result: a few microtasks after it returns. */
function proposedByTheSdk(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** How an entry's journal promise settled. */
type Settled =
  | { readonly records: readonly StepRecord[] }
  | { readonly error: unknown; readonly records?: undefined };

/** A step handed to an open entry, and where its outcome goes. */
interface Feed {
  readonly step: Step;
  readonly deliver: (outcome: Outcome) => void;
}

/**
 * An entry this attempt is running: its action runs the steps fed to it and returns their records
 * when a closing step ends or it is closed.
 */
class OpenEntry {
  readonly records: StepRecord[];
  /** When the entry opened (`performance.now()`). */
  readonly openedAt = performance.now();
  /** Settles when Restate has persisted the entry (or the attempt gave up on it). */
  settled!: Promise<Settled>;
  /** Resolves once the action has returned (its records are proposed to Restate right after). */
  readonly returned: Promise<void>;
  #returned!: () => void;
  /** False once the entry's journal promise settled or it was closed: nothing joins it then. */
  open = true;
  #waiting: ((feed: Feed | undefined) => void) | undefined;
  #queued: Feed | undefined;
  #closing = false;

  /** `records`: safe steps that ran before the entry opened, which it holds first. */
  constructor(records: StepRecord[] = []) {
    this.records = records;
    this.returned = new Promise((resolve) => {
      this.#returned = resolve;
    });
  }

  /** The action of the entry's `ctx.run`, starting with its first step. */
  async run(first: Feed): Promise<StepRecord[]> {
    try {
      let feed: Feed | undefined = first;
      while (feed !== undefined) {
        const outcome = await feed.step.execute();
        this.records.push({ step: feed.step.name, outcome });
        feed.deliver(outcome);
        if (feed.step.kind === 'closing') break;
        feed = await this.#next();
      }
      this.open = false;
      return this.records;
    } finally {
      this.#returned();
    }
  }

  /** Hands the action its next step. */
  feed(feed: Feed): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting === undefined) this.#queued = feed;
    else waiting(feed);
  }

  /** Ends the action after its current step. */
  close(): void {
    this.open = false;
    this.#closing = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(undefined);
  }

  #next(): Promise<Feed | undefined> {
    const queued = this.#queued;
    this.#queued = undefined;
    if (queued !== undefined || this.#closing) return Promise.resolve(queued);
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }
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
  /** The entry this attempt is running, while steps may still join it. */
  #open: OpenEntry | undefined;
  /** The records of a replayed entry that its next steps take, in order. */
  #replayed: StepRecord[] = [];
  /** Whether the last entry came from the journal (an earlier attempt), once there is one. */
  #lastReplayed: boolean | undefined;
  /** A replayed entry that did not match this attempt's steps. */
  #mismatch: Error | undefined;
  /** A `report` tool's entry, closed, that Restate may still be persisting. */
  #unacked: OpenEntry | undefined;
  /** Safe steps run while `#unacked` is persisted: the next entry holds them first. */
  #early: StepRecord[] = [];
  #earlySince = 0;

  constructor(options: JournalRunnerOptions) {
    this.#options = options;
  }

  /** The step names of this attempt, in order, run or replayed (for tests and the trace). */
  readonly steps: string[] = [];
  /** The journal entries of this attempt, by name, in order (run or replayed). */
  readonly entries: string[] = [];

  async runModel(step: ModelStepInfo, call: () => Promise<ModelResponse>): Promise<ModelResponse> {
    const outcome = await this.#step({
      name: `model ${++this.#models} (turn ${step.turn})`,
      kind: 'safe',
      execute: async () => {
        try {
          return { value: asJson(await call()) };
        } catch (error) {
          return failure(error);
        }
      },
    });
    return unwrap(outcome) as ModelResponse;
  }

  async runTool(step: ToolStepInfo, call: () => Promise<unknown>): Promise<unknown> {
    const name = `tool ${++this.#tools} ${step.toolName} ${step.toolCallId}`;
    const execute = async (): Promise<Outcome> => {
      try {
        return { value: asJson(await call()) ?? null };
      } catch (error) {
        return failure(error);
      }
    };
    if (this.#options.recovery(step.toolName) === 'rerun')
      return unwrap(await this.#step({ name, kind: 'safe', execute }));
    if (this.#replayed.length > 0) return unwrap(this.#take(name));
    // Every earlier entry persisted first: whether the last one was replayed then says whether
    // an earlier attempt may have started this call.
    await this.#close();
    await this.#journalEarly(true);
    let interrupted = this.#lastReplayed;
    if (interrupted === undefined) {
      this.steps.push(`${name} started`);
      this.entries.push(`${name} started`);
      const { attempt, ctx } = this.#options;
      const started = await this.#await(ctx.run(`${name} started`, () => Promise.resolve(attempt)));
      interrupted = started !== attempt;
    }
    const outcome = await this.#step({
      name,
      kind: 'closing',
      lateAck: true,
      // Reached only when the call's outcome is not journaled.
      execute: interrupted
        ? () => Promise.resolve({ error: { message: INTERRUPTED_CALL, name: 'Error' } })
        : execute,
    });
    return unwrap(outcome);
  }

  async runHook<A>(
    step: HookStepInfo,
    call: () => Awaitable<A> | undefined,
  ): Promise<A | undefined> {
    const name = `hook ${++this.#hooks} ${step.event}`;
    const outcome = await this.#step(
      {
        name,
        kind: 'closing',
        execute: async () => {
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
        },
      },
      (replayed) => {
        if ('runs' in replayed && Array.isArray(replayed.runs))
          step.hookRuns?.replay(replayed.runs as ObservedHookRun[]);
      },
    );
    const value = unwrap(outcome);
    return (value === null ? undefined : value) as A | undefined;
  }

  /**
   * Closes the turn's open entry, if any, without waiting for Restate to persist it: resolves
   * once its records are proposed, so that what the handler writes next (its state, its output)
   * follows them in the invocation's stream and is persisted after them. Throws when a replayed
   * entry did not match this attempt's steps (the attempt must fail, to be retried).
   */
  async finish(): Promise<void> {
    if (this.#mismatch !== undefined) throw this.#mismatch;
    if (this.#early.length > 0) {
      await this.#journalEarly(false);
      return;
    }
    const open = this.#open;
    if (open === undefined) return;
    this.#open = undefined;
    open.close();
    await open.returned;
    await proposedByTheSdk();
  }

  /**
   * One step: taken from a replayed entry, or joined to the open entry, or the first step of a
   * new entry. `onReplay` sees a replayed outcome (the step did not run in this attempt).
   */
  async #step(step: Step, onReplay?: (outcome: Outcome) => void): Promise<Outcome> {
    if (this.#replayed.length > 0) {
      const outcome = this.#take(step.name);
      onReplay?.(outcome);
      return outcome;
    }
    if (
      step.kind === 'safe' &&
      this.#unacked !== undefined &&
      (this.#early.length === 0 || performance.now() - this.#earlySince < ENTRY_JOIN_WINDOW_MS)
    ) {
      // Runs while the entry before it is persisted (a safe step may run again after a crash);
      // the next entry journals it.
      if (this.#early.length === 0) this.#earlySince = performance.now();
      this.steps.push(step.name);
      const outcome = await step.execute();
      this.#early.push({ step: step.name, outcome });
      return outcome;
    }
    const open = this.#open;
    if (open?.open === true && performance.now() - open.openedAt < ENTRY_JOIN_WINDOW_MS) {
      this.steps.push(step.name);
      const delivered = new Promise<Outcome>((deliver) => {
        open.feed({ step, deliver });
      });
      // A cancellation (or a failure of the attempt) settles the entry before its step ends.
      const settled = await Promise.race([
        delivered.then((outcome) => ({ outcome })),
        open.settled,
      ]);
      if ('error' in settled) throw settled.error;
      const outcome = await delivered;
      if (step.kind === 'closing') await this.#close();
      return outcome;
    }
    await this.#close();
    // Early steps (if any) come first in the entry, which is named after the first of them.
    const early = this.#early;
    this.#early = [];
    const name = early[0]?.step ?? step.name;
    this.entries.push(name);
    const entry = new OpenEntry(early);
    const action = { ran: false };
    let delivered!: (outcome: Outcome) => void;
    const first = new Promise<Outcome>((resolve) => {
      delivered = resolve;
    });
    const journaled = this.#options.ctx.run(name, () => {
      action.ran = true;
      return entry.run({ step, deliver: delivered });
    });
    entry.settled = this.#settle(journaled, entry);
    this.#open = entry;
    const settled = await Promise.race([first.then((outcome) => ({ outcome })), entry.settled]);
    if ('error' in settled) throw settled.error;
    if ('records' in settled && !action.ran) {
      // Replayed from the journal: the entry's records are the outcomes of this and later steps.
      this.#open = undefined;
      this.#lastReplayed = true;
      this.#replayed = [...settled.records];
      const replayed = this.#take(step.name);
      onReplay?.(replayed);
      return replayed;
    }
    this.steps.push(step.name);
    const outcome = await first;
    if (step.kind === 'closing') {
      if (step.lateAck === true) {
        this.#open = undefined;
        entry.close();
        this.#unacked = entry;
      } else await this.#close();
    }
    return outcome;
  }

  /**
   * The next replayed record, which must be `name`'s (the loop's steps are deterministic). A
   * mismatch fails the step and, through `finish()`, the attempt, so that Restate retries it
   * (perhaps on a worker whose agent matches) instead of the turn ending on a wrong answer.
   */
  #take(name: string): Outcome {
    const record = this.#replayed.shift();
    if (record?.step !== name) {
      this.#mismatch ??= new Error(
        `the journal holds step "${record?.step ?? '(none)'}" where this attempt runs "${name}": the worker's agent (model, tools, hooks, settings) must match the one that started the turn`,
      );
      this.#replayed = [];
      throw this.#mismatch;
    }
    this.steps.push(name);
    return record.outcome;
  }

  /** Follows an entry's journal promise (the one awaited until it settles). */
  #settle(journaled: RestatePromise<StepRecord[]>, entry: OpenEntry): Promise<Settled> {
    return journaled.then(
      (records): Settled => {
        entry.open = false;
        return { records };
      },
      (error: unknown): Settled => {
        entry.close();
        if (this.#open === entry) this.#open = undefined;
        this.#noticeCancel(error);
        return { error };
      },
    );
  }

  /** Closes the open entry and waits until Restate has persisted it (and any earlier one). */
  async #close(): Promise<void> {
    const unacked = this.#unacked;
    if (unacked !== undefined) {
      this.#unacked = undefined;
      await this.#persisted(unacked);
    }
    const open = this.#open;
    if (open === undefined) return;
    this.#open = undefined;
    open.close();
    await this.#persisted(open);
  }

  /** Waits until Restate has persisted `entry`, which this attempt wrote. */
  async #persisted(entry: OpenEntry): Promise<void> {
    const settled = await entry.settled;
    if ('error' in settled) throw settled.error;
    this.#lastReplayed = false;
  }

  /**
   * Journals the early steps as an entry of their own, once the entry before them is persisted;
   * with `persisted`, waits until Restate has persisted it too, else only until it is proposed
   * (the turn's end: what the handler writes next follows it in the stream).
   */
  async #journalEarly(persisted: boolean): Promise<void> {
    await this.#close();
    const records = this.#early;
    const first = records[0];
    if (first === undefined) return;
    this.#early = [];
    this.entries.push(first.step);
    let proposed!: () => void;
    const ready = new Promise<void>((resolve) => {
      proposed = resolve;
    });
    const journaled = this.#options.ctx.run(first.step, () => {
      proposed();
      return records;
    });
    if (persisted) {
      await this.#await(journaled);
      this.#lastReplayed = false;
      return;
    }
    journaled.then(
      () => undefined,
      (error: unknown) => {
        this.#noticeCancel(error);
      },
    );
    await ready;
    await proposedByTheSdk();
  }

  /** Awaits a journal promise, noticing a cancellation. */
  async #await<T>(journaled: RestatePromise<T>): Promise<T> {
    try {
      return await journaled;
    } catch (error) {
      this.#noticeCancel(error);
      throw error;
    }
  }

  #noticeCancel(error: unknown): void {
    if (error instanceof RestateCancelled && !this.#cancelled) {
      this.#cancelled = true;
      this.#options.onCancel();
    }
  }
}
