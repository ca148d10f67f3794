/**
 * The main thread's side of one mod's worker (`mod-worker.ts`): starts it, loads the plugin's
 * modules, runs hooks in it and answers their `next` and `$` requests, and enforces the budgets.
 *
 * - **Own time.** A hook has `budgetMs` (10 s) of its own time per event: the clock runs while
 *   the hook's code runs and stops while it waits on `next` or a `$` call (except
 *   `$.clock.sleep`, which counts, as in Claude Code). A `.catch` handler gets `catchBudgetMs` (1 s).
 * - **Wedged.** When a hook overruns, the worker is probed; one that does not answer within
 *   `probeMs` (stuck in a synchronous loop) is terminated, every hook running in it fails, and
 *   the next event starts a fresh worker (the modules load and register again).
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type {
  DispatchOrigin,
  HostMessage,
  ModWorkerData,
  RegistrationInfo,
  WorkerMessage,
} from './mod-protocol.ts';

const WORKER_URL = new URL(
  `./mod-worker${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

/** How one hook run ended. */
export type FrameOutcome =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      /** `throw` (or rejected), `timeout` (own time over budget), `wedge` (the worker was terminated). */
      readonly kind: 'throw' | 'timeout' | 'wedge';
      readonly message: string;
    };

/** What a hook run may ask of the main thread. */
export interface FrameServices {
  /** `next(e)`, or `next.to(e, tier)` when `to` is set. */
  next(e: unknown, to: string | undefined): Promise<unknown>;
  /** `$.noun.method(...args)`; `signal` aborts when the hook's run ends or the worker cancels the call. */
  cap(
    noun: string,
    method: string,
    args: readonly unknown[],
    signal: AbortSignal,
  ): Promise<unknown>;
}

export interface FrameRequest {
  readonly index: number;
  readonly event: string;
  readonly e: unknown;
  readonly origin: DispatchOrigin;
  readonly budgetMs: number;
  /** Set to run the registration's `.catch` handler for this failure. */
  readonly failure?: { readonly kind: string; readonly called: boolean };
}

interface Frame {
  readonly id: number;
  readonly budgetMs: number;
  readonly services: FrameServices;
  usedMs: number;
  /** When the hook's own code last started running; undefined while it waits. */
  runningSince: number | undefined;
  waiting: number;
  timer: NodeJS.Timeout | undefined;
  /** Aborts the hook run's `$` calls still served (its timers' waits) when the run ends. */
  readonly calls: AbortController;
  settle(outcome: FrameOutcome): void;
  settled: boolean;
}

export interface ModWorkerHostOptions {
  /** How long a hook that overran may take to answer a probe before its worker is terminated. Default 1000 ms. */
  readonly probeMs?: number;
  /** Where the worker's `console` output goes. */
  readonly onConsole?: (text: string) => void;
}

export class ModWorkerHost {
  readonly #data: ModWorkerData;
  readonly #options: ModWorkerHostOptions;
  #worker: Worker | undefined;
  #ready: Promise<readonly RegistrationInfo[]> | undefined;
  readonly #frames = new Map<number, Frame>();
  #nextFrame = 1;
  #nextProbe = 1;
  readonly #probes = new Map<number, () => void>();
  /** The `$` calls being served, by call id: a worker's `cancel` aborts one. */
  readonly #cancels = new Map<number, AbortController>();
  #closed = false;

  constructor(data: ModWorkerData, options: ModWorkerHostOptions = {}) {
    this.#data = data;
    this.#options = options;
  }

  get name(): string {
    return this.#data.name;
  }

  /** Starts the worker (if none runs) and resolves with the module's registrations. */
  start(): Promise<readonly RegistrationInfo[]> {
    if (this.#closed) return Promise.reject(new Error(`mod ${this.#data.name} is closed`));
    this.#ready ??= this.#spawn();
    return this.#ready;
  }

  #spawn(): Promise<readonly RegistrationInfo[]> {
    const worker = new Worker(WORKER_URL, {
      workerData: this.#data,
      // A mod reads variables through `$.env.get` only; its worker gets none of its own.
      env: {},
      stdout: false,
      stderr: false,
      // Node's own flags of this process (a test runner's loaders) are not the mod's.
      execArgv: [],
    });
    this.#worker = worker;
    return new Promise((resolve, reject) => {
      let loaded = false;
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'loaded') {
          loaded = true;
          resolve(message.registrations);
          return;
        }
        if (message.type === 'load-failed') {
          loaded = true;
          reject(new Error(message.message));
          void worker.terminate();
          return;
        }
        this.#onMessage(worker, message);
      });
      worker.on('error', (error: Error) => {
        if (!loaded) reject(error);
        this.#lost(worker, `the mod's worker failed: ${error.message}`);
      });
      worker.on('exit', () => {
        if (!loaded) reject(new Error(`the worker of mod ${this.#data.name} exited while loading`));
        this.#lost(worker, 'the mod’s worker exited');
      });
    });
  }

  /** Runs one hook (or its `.catch`), answering its requests through `services`. */
  run(request: FrameRequest, services: FrameServices): Promise<FrameOutcome> {
    return this.start().then(
      () =>
        new Promise<FrameOutcome>((resolve) => {
          const worker = this.#worker;
          const id = this.#nextFrame++;
          const frame: Frame = {
            id,
            budgetMs: request.budgetMs,
            services,
            usedMs: 0,
            runningSince: undefined,
            waiting: 0,
            timer: undefined,
            calls: new AbortController(),
            settled: false,
            settle: (outcome) => {
              if (frame.settled) return;
              frame.settled = true;
              clearTimeout(frame.timer);
              frame.calls.abort();
              this.#frames.delete(id);
              resolve(outcome);
            },
          };
          if (worker === undefined) {
            frame.settle({ ok: false, kind: 'wedge', message: 'no worker' });
            return;
          }
          this.#frames.set(id, frame);
          this.#resume(frame);
          const message: HostMessage = {
            type: 'run',
            frame: id,
            index: request.index,
            event: request.event,
            e: request.e,
            origin: request.origin,
            budgetMs: request.budgetMs,
            ...(request.failure === undefined ? {} : { failure: request.failure }),
          };
          try {
            worker.postMessage(message);
          } catch (error) {
            frame.settle({
              ok: false,
              kind: 'throw',
              message: `the event could not be sent to the mod: ${error instanceof Error ? error.message : String(error)}`,
            });
          }
        }),
      (error: unknown) => ({
        ok: false as const,
        kind: 'throw' as const,
        message: `the mod did not load: ${error instanceof Error ? error.message : String(error)}`,
      }),
    );
  }

  #resume(frame: Frame): void {
    if (frame.settled || frame.waiting > 0) return;
    frame.runningSince = performance.now();
    const remaining = Math.max(0, frame.budgetMs - frame.usedMs);
    frame.timer = setTimeout(() => {
      this.#overrun(frame);
    }, remaining);
  }

  #pause(frame: Frame): void {
    if (frame.runningSince !== undefined) {
      frame.usedMs += performance.now() - frame.runningSince;
      frame.runningSince = undefined;
    }
    clearTimeout(frame.timer);
    frame.timer = undefined;
  }

  #overrun(frame: Frame): void {
    frame.settle({
      ok: false,
      kind: 'timeout',
      message: `the hook ran over its ${String(frame.budgetMs)} ms of its own time`,
    });
    // A worker stuck in synchronous code never answers the probe: it is terminated.
    const worker = this.#worker;
    if (worker === undefined) return;
    const probe = this.#nextProbe++;
    const deadline = setTimeout(() => {
      this.#probes.delete(probe);
      this.#lost(worker, 'the mod’s worker was wedged and was terminated');
      void worker.terminate();
    }, this.#options.probeMs ?? 1000);
    this.#probes.set(probe, () => {
      clearTimeout(deadline);
    });
    worker.postMessage({ type: 'ping', probe } satisfies HostMessage);
  }

  #onMessage(worker: Worker, message: WorkerMessage): void {
    if (message.type === 'console') {
      this.#options.onConsole?.(message.text);
      return;
    }
    if (message.type === 'pong') {
      this.#probes.get(message.probe)?.();
      this.#probes.delete(message.probe);
      return;
    }
    if (message.type === 'loaded' || message.type === 'load-failed') return;
    if (message.type === 'cancel') {
      this.#cancels.get(message.call)?.abort();
      return;
    }
    const frame = this.#frames.get(message.frame);
    if (message.type === 'done') {
      frame?.settle({ ok: true, value: message.value });
      return;
    }
    if (message.type === 'failed') {
      frame?.settle({ ok: false, kind: 'throw', message: message.message });
      return;
    }
    const reply = (answer: HostMessage): void => {
      if (this.#worker === worker) worker.postMessage(answer);
    };
    if (frame === undefined) {
      reply({
        type: 'reply',
        call: message.call,
        ok: false,
        message: 'the hook’s run is over (it failed, timed out or answered)',
      });
      return;
    }
    // `$.clock.sleep` is the one wait that counts as the hook's own time; a timer's wait
    // (`after`, `every`) is not waited on by the hook, so it neither counts nor pauses its clock.
    const counts =
      message.type === 'cap' &&
      message.noun === 'clock' &&
      (message.method === 'sleep' || message.method === 'after' || message.method === 'every');
    if (!counts) {
      this.#pause(frame);
      frame.waiting++;
    }
    const finish = (): void => {
      if (counts) return;
      frame.waiting--;
      this.#resume(frame);
    };
    let served: Promise<unknown>;
    if (message.type === 'next') served = frame.services.next(message.e, message.to);
    else {
      // A call the worker may cancel (a timer's `cancel()`), and that ends with the hook's run.
      const call = new AbortController();
      const signal = AbortSignal.any([frame.calls.signal, call.signal]);
      this.#cancels.set(message.call, call);
      served = frame.services
        .cap(message.noun, message.method, message.args, signal)
        .finally(() => this.#cancels.delete(message.call));
    }
    served.then(
      (value) => {
        finish();
        try {
          reply({ type: 'reply', call: message.call, ok: true, value });
        } catch (error) {
          reply({
            type: 'reply',
            call: message.call,
            ok: false,
            message: `the answer is not plain data: ${error instanceof Error ? error.message : String(error)}`,
          });
        }
      },
      (error: unknown) => {
        finish();
        reply({
          type: 'reply',
          call: message.call,
          ok: false,
          message: error instanceof Error ? error.message : String(error),
        });
      },
    );
  }

  #lost(worker: Worker, message: string): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    this.#ready = undefined;
    for (const frame of [...this.#frames.values()])
      frame.settle({ ok: false, kind: 'wedge', message });
  }

  /** Terminates the worker; hooks running fail as wedged. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    if (worker === undefined) return;
    this.#lost(worker, 'the session closed');
    await worker.terminate();
  }
}
