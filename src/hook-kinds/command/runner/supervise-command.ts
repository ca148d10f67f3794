import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { BoundedOutput } from './bounded-output.ts';
import type { CommandTermination } from './command-runner.ts';
import { DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES } from './command-runner.ts';
import { hasRunningMembers, isProcessGroupAlive, signalProcessGroup } from './process-group.ts';

/** How often a group being killed is checked for running members (only during the grace). */
const GROUP_POLL_MS = 25;

/**
 * How long, after the shell exited by itself, we wait for stdout/stderr to reach end-of-file
 * before settling with what we have. A background grandchild that inherited the pipes would
 * otherwise hold the outcome open for as long as it lives.
 */
export const DRAIN_WINDOW_MS = 250;

/** What `superviseCommand` needs: `RunCommandOptions` with the input already as bytes. */
export interface SupervisionOptions {
  readonly command: string;
  readonly cwd: string;
  readonly input: Buffer | string;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly timeoutMs: number;
  readonly killGraceMs?: number | undefined;
  readonly maxOutputBytes?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** A `CommandResult` before decoding: the kept output as bytes. */
export interface SupervisedOutcome {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly durationMs: number;
  readonly termination: CommandTermination;
  readonly spawnError?: string;
}

/** One supervised hook process group. */
export interface Supervision {
  /** The shell's pid, which is also its process group id; undefined when the spawn failed. */
  readonly processId: number | undefined;
  /** Settles once: when the shell exits (and its pipes drain), at the deadline, or on abort. */
  readonly outcome: Promise<SupervisedOutcome>;
  /**
   * Resolves when nothing of the process group can outlive us any more: the group was found
   * empty, or SIGKILL was sent to it after the grace. Never rejects.
   */
  readonly reaped: Promise<void>;
  /** Same as the caller's signal firing: settles as `aborted` (if not settled) and kills the group. */
  abort(): void;
}

const emptyBuffer = Buffer.alloc(0);

/**
 * Runs `/bin/sh -c COMMAND` as the leader of a new process group and supervises it.
 *
 * - The outcome settles at once at the deadline or on abort (`timeout` / `aborted`, with the
 *   output so far) while the group gets SIGTERM, then SIGKILL after `killGraceMs`, in the
 *   background.
 * - When the shell exits by itself, the outcome settles when stdout and stderr reach end-of-file,
 *   or after `DRAIN_WINDOW_MS` if a background grandchild keeps them open.
 * - Either way, once settled, any process left in the group is killed (SIGTERM, SIGKILL after
 *   the grace): a hook's processes never outlive it. A hook that wants a daemon must leave the
 *   group itself (`setsid`).
 */
export function superviseCommand(options: SupervisionOptions): Supervision {
  const started = performance.now();
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const stdout = new BoundedOutput(maxOutputBytes);
  const stderr = new BoundedOutput(maxOutputBytes);

  let resolveOutcome!: (outcome: SupervisedOutcome) => void;
  const outcome = new Promise<SupervisedOutcome>((resolve) => (resolveOutcome = resolve));
  let resolveReaped!: () => void;
  const reaped = new Promise<void>((resolve) => (resolveReaped = resolve));

  const settleWithoutProcess = (termination: CommandTermination, spawnError?: string) => {
    resolveOutcome({
      exitCode: null,
      signal: null,
      stdout: emptyBuffer,
      stderr: emptyBuffer,
      stdoutTruncated: false,
      stderrTruncated: false,
      durationMs: performance.now() - started,
      termination,
      ...(spawnError === undefined ? {} : { spawnError }),
    });
    resolveReaped();
  };

  if (options.signal?.aborted === true) {
    settleWithoutProcess('aborted');
    return { processId: undefined, outcome, reaped, abort: () => undefined };
  }

  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn('/bin/sh', ['-c', options.command], {
      cwd: options.cwd,
      env: options.env === undefined ? process.env : { ...process.env, ...options.env },
      detached: true,
      stdio: 'pipe',
    });
  } catch (error) {
    // Synchronous spawn failures: e.g. a NUL byte in the command or an environment value.
    settleWithoutProcess('spawn-error', error instanceof Error ? error.message : String(error));
    return { processId: undefined, outcome, reaped, abort: () => undefined };
  }
  const processId = child.pid;

  let settled = false;
  let leaderExited = false;
  let exitCode: number | null = null;
  let exitSignal: string | null = null;
  let openStreams = 2;
  let deadlineTimer: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  let killing = false;
  let reapedDone = false;
  let pollTimer: NodeJS.Timeout | undefined;

  const finishReaping = () => {
    if (reapedDone) return;
    reapedDone = true;
    if (killTimer !== undefined) clearTimeout(killTimer);
    if (pollTimer !== undefined) clearInterval(pollTimer);
    resolveReaped();
  };

  // SIGTERM now, SIGKILL after the grace, unless the group is found empty first.
  const killGroup = () => {
    if (killing || processId === undefined) return;
    killing = true;
    if (!signalProcessGroup(processId, 'SIGTERM')) {
      finishReaping();
      return;
    }
    killTimer = setTimeout(() => {
      signalProcessGroup(processId, 'SIGKILL');
      finishReaping();
    }, killGraceMs);
    // A group that died on SIGTERM is done at once, not after the whole grace: its last members
    // may be zombies a lazy init has not reaped yet, which only a look at their state reveals.
    const groupId = processId;
    pollTimer = setInterval(() => {
      if (!hasRunningMembers(groupId)) finishReaping();
    }, GROUP_POLL_MS);
  };

  // While the group is being killed, each sign of life ending is a chance to stop early.
  const checkGroupGone = () => {
    if (killing && !reapedDone && leaderExited && openStreams === 0 && processId !== undefined) {
      if (!isProcessGroupAlive(processId)) finishReaping();
    }
  };

  const settle = (termination: CommandTermination, spawnError?: string) => {
    if (settled) return;
    settled = true;
    if (deadlineTimer !== undefined) clearTimeout(deadlineTimer);
    if (drainTimer !== undefined) clearTimeout(drainTimer);
    options.signal?.removeEventListener('abort', onAbort);
    const exited = termination === 'exited';
    resolveOutcome({
      exitCode: exited ? exitCode : null,
      signal: exited ? exitSignal : null,
      stdout: stdout.bytes(),
      stderr: stderr.bytes(),
      stdoutTruncated: stdout.truncated,
      stderrTruncated: stderr.truncated,
      durationMs: performance.now() - started,
      termination,
      ...(spawnError === undefined ? {} : { spawnError }),
    });
    stdout.discardFurther();
    stderr.discardFurther();
    if (processId === undefined) {
      finishReaping();
    } else if (exited && openStreams === 0 && !isProcessGroupAlive(processId)) {
      // The common case: the shell and everything it started are gone; no timers needed.
      finishReaping();
    } else {
      killGroup();
      checkGroupGone();
    }
  };

  const onAbort = () => {
    settle(leaderExited ? 'exited' : 'aborted');
  };

  child.stdout.on('data', (chunk: Buffer) => {
    stdout.push(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr.push(chunk);
  });
  const onStreamClosed = () => {
    openStreams--;
    if (openStreams === 0) {
      if (leaderExited && !settled) settle('exited');
      else checkGroupGone();
    }
  };
  child.stdout.once('close', onStreamClosed);
  child.stderr.once('close', onStreamClosed);
  // A hook that never reads stdin makes our write fail with EPIPE; that is its right.
  child.stdin.on('error', () => undefined);

  child.once('error', (error: NodeJS.ErrnoException) => {
    // After a successful spawn, 'error' can only come from signalling, which we do not do
    // through the ChildProcess; before it, this is the spawn failure.
    if (processId !== undefined || settled) return;
    void describeSpawnError(error, options.cwd).then((message) => {
      settle('spawn-error', message);
    });
  });

  child.once('exit', (code, signal) => {
    leaderExited = true;
    exitCode = code;
    exitSignal = signal;
    if (settled) {
      checkGroupGone();
      return;
    }
    if (openStreams === 0) {
      settle('exited');
      return;
    }
    drainTimer = setTimeout(() => {
      settle('exited');
    }, DRAIN_WINDOW_MS);
  });

  if (processId !== undefined) {
    child.stdin.end(options.input);
    deadlineTimer = setTimeout(() => {
      settle(leaderExited ? 'exited' : 'timeout');
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
  }

  return {
    processId,
    outcome,
    reaped,
    abort: () => {
      if (settled) return;
      onAbort();
    },
  };
}

// Node reports a missing cwd as `spawn /bin/sh ENOENT`, which points at the wrong culprit.
async function describeSpawnError(error: NodeJS.ErrnoException, cwd: string): Promise<string> {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
    try {
      const info = await stat(cwd);
      if (!info.isDirectory()) return `the working directory ${cwd} is not a directory`;
    } catch {
      return `the working directory ${cwd} does not exist`;
    }
  }
  return `could not start /bin/sh: ${error.message}`;
}
