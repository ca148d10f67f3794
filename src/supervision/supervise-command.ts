import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { closeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { BoundedOutput } from './bounded-output.ts';
import type { CommandTermination } from './command-runner.ts';
import { DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES } from './command-runner.ts';
import {
  HOOK_RUN_VARIABLE,
  canScanProcesses,
  findContainedProcesses,
  signalProcesses,
} from './containment.ts';
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
  /** The shell command (`/bin/sh -c COMMAND`); ignored when `argv` is given. */
  readonly command: string;
  /** Argv mode: the program (`argv[0]`, a path or a name on `PATH`) and its arguments, no shell. */
  readonly argv?: readonly string[] | undefined;
  readonly cwd: string;
  readonly input: Uint8Array | string;
  /**
   * A file descriptor to give the hook as stdin instead of writing `input` to a pipe (the spawn
   * helper's path for large payloads, which the parent wrote to a file once). Closed here after
   * the spawn.
   */
  readonly inputFd?: number | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly timeoutMs: number;
  readonly killGraceMs?: number | undefined;
  readonly maxOutputBytes?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /**
   * The run's containment tag, given to the hook as `HOOKWIRE_HOOK_RUN` (see `containment.ts`):
   * at the deadline, on abort and whenever the group is killed, processes carrying it are killed
   * with the group even when they left it.
   */
  readonly runTag: string;
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
 * - Either way, once settled, stdout and stderr are closed on our side and any process left in
 *   the group is killed (SIGTERM, SIGKILL after the grace). At the deadline and on abort this
 *   includes processes that left the group (`setsid`, double fork), found by the run's tag
 *   (`HOOKWIRE_HOOK_RUN`) and their ancestry. After a clean exit, such a process is left to run
 *   until its runner closes (`killScope`), which kills it.
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

  let child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  try {
    const [file, ...args] =
      options.argv === undefined ? ['/bin/sh', '-c', options.command] : options.argv;
    child = spawn(file ?? '', args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env, [HOOK_RUN_VARIABLE]: options.runTag },
      detached: true,
      stdio: [options.inputFd ?? 'pipe', 'pipe', 'pipe'],
    }) as ChildProcessByStdio<Writable | null, Readable, Readable>; // stdout, stderr: 'pipe'
  } catch (error) {
    // Synchronous spawn failures: e.g. a NUL byte in the command or an environment value.
    settleWithoutProcess('spawn-error', error instanceof Error ? error.message : String(error));
    return { processId: undefined, outcome, reaped, abort: () => undefined };
  } finally {
    // The child has its own copy now (or there is no child).
    if (options.inputFd !== undefined) closeSync(options.inputFd);
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
    if (pollTimer !== undefined) clearTimeout(pollTimer);
    resolveReaped();
  };

  const match = { groupIds: processId === undefined ? [] : [processId], tag: options.runTag };
  // After a clean exit only the group is killed: what left it lives until the runner closes.
  let includeEscapees = true;
  /** The running processes of the run: its group, and those that left it (setsid, double fork). */
  const members = (): number[] =>
    includeEscapees || processId === undefined
      ? findContainedProcesses(match)
      : findContainedProcesses({ groupIds: [processId] });
  const isEmpty = (): boolean =>
    processId === undefined ||
    (canScanProcesses ? members().length === 0 : !hasRunningMembers(processId));

  // SIGTERM now, SIGKILL after the grace, unless the run is found empty first. Processes that
  // left the group are signalled one by one, found by their tag or their ancestry.
  const killGroup = () => {
    if (killing || processId === undefined) return;
    killing = true;
    const groupExists = signalProcessGroup(processId, 'SIGTERM');
    const escaped = members();
    signalProcesses(escaped, 'SIGTERM');
    if (!groupExists && escaped.length === 0) {
      finishReaping();
      return;
    }
    killTimer = setTimeout(() => {
      for (let round = 0; round < 3; round++) {
        const groupLeft = signalProcessGroup(processId, 'SIGKILL');
        const left = members();
        signalProcesses(left, 'SIGKILL');
        if (!groupLeft && left.length === 0) break;
      }
      finishReaping();
    }, killGraceMs);
    // A run that died on SIGTERM is done at once, not after the whole grace: its last members
    // may be zombies a lazy init has not reaped yet, which only a look at their state reveals.
    // Chained, and spaced by at least twice the last look's cost, so that scanning /proc on a
    // loaded machine never starves the event loop.
    const poll = () => {
      const looked = performance.now();
      if (isEmpty()) {
        finishReaping();
        return;
      }
      const cost = performance.now() - looked;
      pollTimer = setTimeout(poll, Math.max(GROUP_POLL_MS, 2 * cost));
    };
    pollTimer = setTimeout(poll, GROUP_POLL_MS);
  };

  // While the group is being killed, each sign of life ending is a chance to stop early.
  const checkGroupGone = () => {
    if (killing && !reapedDone && leaderExited && openStreams === 0 && processId !== undefined) {
      if (!isProcessGroupAlive(processId) && isEmpty()) finishReaping();
    }
  };

  // Once the outcome is taken nothing more is read: a daemon that inherited the pipes must not
  // keep them (and with them this process's event loop) open.
  const closePipes = () => {
    child.stdin?.destroy();
    child.stdout.destroy();
    child.stderr.destroy();
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
    closePipes();
    if (processId === undefined) {
      finishReaping();
    } else if (exited && openStreams === 0 && !isProcessGroupAlive(processId)) {
      // The common case: the shell and everything it started are gone; no timers needed.
      finishReaping();
    } else {
      includeEscapees = !exited;
      // After the outcome's consumers (the helper's reply) ran: a /proc scan on a loaded
      // machine must not delay the outcome.
      setImmediate(() => {
        killGroup();
        checkGroupGone();
      });
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
  child.stdin?.on('error', () => undefined);

  child.once('error', (error: NodeJS.ErrnoException) => {
    // After a successful spawn, 'error' can only come from signalling, which we do not do
    // through the ChildProcess; before it, this is the spawn failure.
    if (processId !== undefined || settled) return;
    void describeSpawnError(error, options.cwd, options.argv?.[0] ?? '/bin/sh').then((message) => {
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
    child.stdin?.end(options.input);
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
async function describeSpawnError(
  error: NodeJS.ErrnoException,
  cwd: string,
  program: string,
): Promise<string> {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
    try {
      const info = await stat(cwd);
      if (!info.isDirectory()) return `the working directory ${cwd} is not a directory`;
    } catch {
      return `the working directory ${cwd} does not exist`;
    }
  }
  return `could not start ${program}: ${error.message}`;
}
