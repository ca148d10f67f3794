/**
 * `type: "process"` hooks: one long-lived process per hook definition, answering each event as
 * a JSON-RPC 2.0 request instead of paying a spawn per event.
 *
 * - A process is started by the first event it answers (or at SessionStart with
 *   `"start": "session"`, see `processHookLifecycle`), in the project directory, with the hook
 *   environment of that first event, and serves every later event of the definition.
 * - The request's `params` is exactly the payload a command hook reads on stdin; the `result` is
 *   read exactly as a command hook's JSON stdout (`null` or `{}`: no opinion). A JSON-RPC `error`
 *   is a failed hook: a warning, or a denial when the hook is `failClosed`.
 * - Each request has the hook's `timeout` as its deadline. A process that exits, writes garbage
 *   or lets a request pass its deadline is killed; its requests in flight fail by their hook's
 *   rules, and the next event starts a fresh process after a backoff (doubling from
 *   `backoff.initialMs` to `backoff.maxMs`, reset by the first good answer). An event that
 *   arrives during the backoff waits for it when the wait fits in its deadline, and otherwise
 *   fails at once.
 * - `stopAll()` (at session end, after SessionEnd) and `close()` kill every process, as a group,
 *   like a command hook's.
 */
import type { ProcessHookConfig } from './process-kind.ts';
import { formatDuration } from '../duration.ts';
import type { HookAnswer, HookExecution, HookKindRunner, HookRunContext } from '../hook-kind.ts';
import { JsonRpcProcess, type RpcReply } from './json-rpc-process.ts';
import { spawnInProcessGroup, type SpawnHookProcess } from './spawn-hook-process.ts';
import { createContainmentScope } from '../../supervision/containment.ts';
import { startWatchdog, type Watchdog } from '../../supervision/watchdog.ts';

export interface ProcessHookRunnerOptions {
  /** How processes are started and contained; default: their own process group. */
  readonly spawn?: SpawnHookProcess;
  /** SIGTERM → SIGKILL grace when a process is stopped. Default 2000 ms. */
  readonly killGraceMs?: number;
  /** Restart backoff after a broken process. Default 100 ms doubling to 10 s. */
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** The longest line accepted from a process. Default 4 MiB. */
  readonly maxLineLength?: number;
}

/** The process hook runner of one host (usually one per `hookwire run`). */
export interface ProcessHookRunner extends HookKindRunner<ProcessHookConfig> {
  /** Starts the hook's process now unless it runs (used for `"start": "session"`). */
  start(hook: ProcessHookConfig, context: ProcessStartContext): void;
  /** Processes currently running (for `hooks list` style reporting and tests). */
  readonly running: number;
  /** Stops every process (they restart on their next event). */
  stopAll(): Promise<void>;
  /** Stops every process for good: later runs answer a failure. Idempotent. */
  close(): Promise<void>;
}

/** Where a process starts: the fields of `HookRunContext` that shape its process. */
export type ProcessStartContext = Pick<HookRunContext, 'projectDir' | 'env'>;

interface Entry {
  process: JsonRpcProcess | undefined;
  /** Consecutive broken processes (reset by a good answer). */
  failures: number;
  /** No new process before this time (ms since epoch). */
  notBefore: number;
}

const DEFAULT_BACKOFF = { initialMs: 100, maxMs: 10_000 } as const;
const DEFAULT_KILL_GRACE_MS = 2000;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function answerOf(reply: RpcReply): HookAnswer {
  switch (reply.kind) {
    case 'result':
      return { kind: 'json', value: reply.value };
    case 'error':
      return {
        kind: 'failure',
        status: 'warning',
        what: `answered a JSON-RPC error${reply.code === undefined ? '' : ` ${reply.code}`}: ${reply.message}`,
      };
    case 'failure':
      return { kind: 'failure', status: reply.status, what: reply.what };
  }
}

/** Creates the runner of `type: "process"` hooks. */
export function createProcessHookRunner(options: ProcessHookRunnerOptions = {}): ProcessHookRunner {
  const spawn = options.spawn ?? spawnInProcessGroup;
  // The processes' tags, and the watchdog that kills them if hookwire dies (started with the first).
  const scope = createContainmentScope();
  let watchdog: Watchdog | undefined;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const entries = new Map<string, Entry>();
  const stopping = new Set<Promise<void>>();
  let closed = false;
  // Read through a function: `closed` changes across the awaits of `run`.
  const isClosed = (): boolean => closed;

  const keyOf = (hook: ProcessHookConfig, projectDir: string): string =>
    JSON.stringify([projectDir, hook.command, hook.start]);

  // Each hook config's entry, keyed once per config and project rather than on every event.
  const entriesOfHooks = new WeakMap<
    ProcessHookConfig,
    { readonly projectDir: string; readonly entry: Entry }
  >();
  function entryOf(hook: ProcessHookConfig, projectDir: string): Entry {
    const known = entriesOfHooks.get(hook);
    if (known?.projectDir === projectDir) return known.entry;
    const entry = entryFor(keyOf(hook, projectDir));
    entriesOfHooks.set(hook, { projectDir, entry });
    return entry;
  }

  function entryFor(key: string): Entry {
    let entry = entries.get(key);
    if (entry === undefined) {
      entry = { process: undefined, failures: 0, notBefore: 0 };
      entries.set(key, entry);
    }
    return entry;
  }

  function launch(
    entry: Entry,
    hook: ProcessHookConfig,
    context: ProcessStartContext,
  ): JsonRpcProcess {
    watchdog ??= startWatchdog(scope.prefix, { graceMs: killGraceMs });
    const spawned = spawn({
      command: hook.command,
      cwd: context.projectDir,
      env: context.env,
      tag: scope.nextTag(),
      watchdog,
    });
    const rpc: JsonRpcProcess = new JsonRpcProcess(spawned, {
      killGraceMs,
      ...(options.maxLineLength === undefined ? {} : { maxLineLength: options.maxLineLength }),
      onBreak: () => {
        if (entry.process === rpc) entry.process = undefined;
        entry.failures++;
        const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** (entry.failures - 1));
        entry.notBefore = Date.now() + delay;
        void stop(rpc);
      },
    });
    entry.process = rpc;
    return rpc;
  }

  function stop(process: JsonRpcProcess): Promise<void> {
    const stopped = process.close();
    stopping.add(stopped);
    void stopped.then(() => stopping.delete(stopped));
    return stopped;
  }

  async function run(hook: ProcessHookConfig, context: HookRunContext): Promise<HookExecution> {
    const started = performance.now();
    const done = (answer: HookAnswer): HookExecution => ({
      answer,
      durationMs: performance.now() - started,
    });
    if (closed)
      return done({
        kind: 'failure',
        status: 'error',
        what: 'could not run: its runner was closed',
      });
    const entry = entryOf(hook, context.projectDir);
    let process = entry.process;
    if (process === undefined || !process.usable) {
      const wait = entry.notBefore - Date.now();
      if (wait > 0) {
        if (wait >= hook.timeoutMs)
          return done({
            kind: 'failure',
            status: 'error',
            what: `could not run: its process is restarting after ${entry.failures} failure(s) (next start in ${formatDuration(Math.ceil(wait))})`,
          });
        if (!(await sleep(wait, context.signal)))
          return done({
            kind: 'failure',
            status: 'error',
            what: 'was cancelled before it answered',
          });
        if (isClosed())
          return done({
            kind: 'failure',
            status: 'error',
            what: 'could not run: its runner was closed',
          });
      }
      process = entry.process?.usable === true ? entry.process : launch(entry, hook, context);
    }
    const remaining = hook.timeoutMs - (performance.now() - started);
    const reply = await process.request(
      context.input,
      remaining >= 1 ? remaining : 1,
      context.signal,
      hook.timeoutMs,
    );
    if (reply.kind !== 'failure') entry.failures = 0;
    return done(answerOf(reply));
  }

  return {
    run,
    start(hook, context) {
      if (closed) return;
      const entry = entryOf(hook, context.projectDir);
      if (entry.process?.usable !== true) launch(entry, hook, context);
    },
    get running() {
      let count = 0;
      for (const entry of entries.values()) if (entry.process?.usable === true) count++;
      return count;
    },
    async stopAll() {
      const all: Promise<void>[] = [];
      for (const entry of entries.values()) {
        if (entry.process !== undefined) all.push(stop(entry.process));
        entry.process = undefined;
      }
      await Promise.all([...all, ...stopping]);
    },
    async close() {
      closed = true;
      await this.stopAll();
      // Sweeps what the processes started outside their groups, then exits.
      await watchdog?.close();
    },
  };
}
