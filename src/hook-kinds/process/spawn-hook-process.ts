/**
 * The containment seam of process hooks: how one long-lived hook process is started and killed.
 *
 * Today it is the same containment a command hook gets from the direct runner: `/bin/sh -c
 * COMMAND` in its own process group (so everything it starts dies with it), killed as a group
 * with SIGTERM, then SIGKILL after a grace. When the command runner's containment primitives
 * (run tags that find escapees outside the group) land, they plug in here: pass a different
 * `SpawnHookProcess` to `createProcessHookRunner`, or replace `spawnInProcessGroup`, and the
 * JSON-RPC client above it does not change.
 */
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { hasRunningMembers, signalProcessGroup } from '../command/runner/process-group.ts';

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
  readonly cwd: string;
  /** Added over the inherited environment. */
  readonly env: Readonly<Record<string, string>>;
}

/** Starts one hook process. Must not throw: a start failure settles `exited` with `spawnError`. */
export type SpawnHookProcess = (options: SpawnHookProcessOptions) => SpawnedHookProcess;

const POLL_MS = 10;

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

/** The default `SpawnHookProcess`: `/bin/sh -c COMMAND` as the leader of a new process group. */
export const spawnInProcessGroup: SpawnHookProcess = (options) => {
  const child = spawn('/bin/sh', ['-c', options.command], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<HookProcessExit>((resolve) => {
    child.once('error', (error) => {
      resolve({ code: null, signal: null, spawnError: error.message });
    });
    child.once('exit', (code, signal) => {
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
