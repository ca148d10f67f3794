/**
 * The containment seam of process hooks: how one long-lived hook process is started and killed.
 *
 * `/bin/sh -c COMMAND` in its own process group (so everything it starts dies with it), killed
 * as a group with SIGTERM, then SIGKILL after a grace. With a `tag` it carries
 * `HOOKWIRE_HOOK_RUN` (decision 0008), so the runner's scope finds what left the group; with a
 * `watchdog` its group is killed even when hookwire dies without stopping it (SIGKILL
 * included). Pass a different `SpawnHookProcess` to `createProcessHookRunner` to contain it
 * otherwise; the JSON-RPC client above it does not change.
 */
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { HOOK_RUN_VARIABLE } from '../../supervision/containment.ts';
import { hasRunningMembers, signalProcessGroup } from '../../supervision/process-group.ts';
import type { Watchdog } from '../../supervision/watchdog.ts';
import { holdReaper, underReaper } from '../../supervision/reaper.ts';

/** How a hook process ended. */
export interface HookProcessExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Set when the process could not be started at all (e.g. a missing working directory). */
  readonly spawnError?: string;
}

/** One started hook process, as the JSON-RPC client sees it. */
export interface SpawnedHookProcess {
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Settles once when the process has exited (or failed to start); never rejects. */
  readonly exited: Promise<HookProcessExit>;
  /**
   * Kills the process and everything it started: SIGTERM to its group, SIGKILL after `graceMs`
   * if any member still runs. Resolves when the group has no running member. Idempotent.
   */
  kill(graceMs: number): Promise<void>;
}

export interface SpawnHookProcessOptions {
  readonly command: string;
  /** Argv mode: the program and its arguments, started directly (no shell); `command` unused. */
  readonly argv?: readonly [string, ...string[]];
  readonly cwd: string;
  /** Added over the inherited environment. */
  readonly env: Readonly<Record<string, string>>;
  /** The containment tag, given to the process as `HOOKWIRE_HOOK_RUN`. */
  readonly tag?: string;
  /** Kills the process's group if hookwire dies without stopping it. */
  readonly watchdog?: Watchdog;
}

/** Starts one hook process. Must not throw: a start failure settles `exited` with `spawnError`. */
export type SpawnHookProcess = (options: SpawnHookProcessOptions) => SpawnedHookProcess;

const POLL_MS = 10;
/** The reaper's SIGTERM → SIGKILL grace: under the runner's default 2 s group grace. */
const REAPER_GRACE_MS = 1000;

function waitFor(groupId: number, deadline: number): Promise<boolean> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!hasRunningMembers(groupId)) resolve(true);
      else if (Date.now() >= deadline) resolve(false);
      else setTimeout(check, POLL_MS).unref();
    };
    check();
  });
}

/**
 * The default `SpawnHookProcess`: `/bin/sh -c COMMAND` as the leader of a new process group, or,
 * where the reaper is in force (`reaper.ts`), under the reaper, which leads the group: an orphan
 * of the hook that left the group and cleared its environment is still held and killed.
 */
export const spawnInProcessGroup: SpawnHookProcess = (options) => {
  // The reaper's own SIGTERM → SIGKILL grace is shorter than the one `kill` gives the group, so
  // it has killed everything below it before the group's SIGKILL would take it down.
  const [file, ...args] = options.argv ?? ['/bin/sh', '-c', options.command];
  const target = underReaper(file, args, REAPER_GRACE_MS);
  const child = spawn(target.file, [...target.args], {
    cwd: options.cwd,
    env: {
      ...process.env,
      ...options.env,
      ...(options.tag === undefined ? {} : { [HOOK_RUN_VARIABLE]: options.tag }),
    },
    stdio: target.reaped ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  holdReaper(child);
  const { watchdog } = options;
  if (watchdog !== undefined)
    child.once('spawn', () => {
      if (child.pid !== undefined) watchdog.watch(child.pid);
    });
  const exited = new Promise<HookProcessExit>((resolve) => {
    child.once('error', (error) => {
      resolve({ code: null, signal: null, spawnError: error.message });
    });
    child.once('exit', (code, signal) => {
      // The group may outlive its leader; the runner's close sweeps the scope for the rest.
      if (child.pid !== undefined && !hasRunningMembers(child.pid)) watchdog?.release(child.pid);
      resolve({ code, signal });
    });
  });
  // A hook that exits without reading its input must not crash us with EPIPE.
  child.stdin.on('error', () => undefined);
  let killing: Promise<void> | undefined;
  return {
    pid: child.pid,
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    kill(graceMs) {
      killing ??= (async () => {
        const groupId = child.pid;
        if (groupId === undefined) return;
        child.stdin.destroy();
        signalProcessGroup(groupId, 'SIGTERM');
        if (!(await waitFor(groupId, Date.now() + graceMs))) {
          signalProcessGroup(groupId, 'SIGKILL');
          await waitFor(groupId, Date.now() + 5_000);
        }
        await exited;
      })();
      return killing;
    },
  };
};
