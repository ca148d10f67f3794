import { CommandRunnerError } from './command-runner-error.ts';

/** SIGTERM → SIGKILL grace when none is given: long enough for a hook to clean up, short enough to bound a turn. */
export const DEFAULT_KILL_GRACE_MS = 2000;

/** Per-stream output cap when none is given: 1 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * One run of a command hook, in its own process group: a shell command (`/bin/sh -c COMMAND`,
 * `RunShellOptions`) or a program and its arguments spawned directly, with no shell
 * (`RunArgvOptions`: argv mode). Either way `input` is written to its stdin, which is then closed,
 * and the run has the same containment, deadline, output bounds and reaping.
 */
export type RunCommandOptions = RunShellOptions | RunArgvOptions;

/** A shell command, run as `/bin/sh -c COMMAND`. */
export interface RunShellOptions extends RunOptionsBase {
  readonly command: string;
  readonly file?: undefined;
  readonly args?: undefined;
}

/**
 * Argv mode: `file` (a path, or a name found on `PATH`) run with `args` as its arguments, each
 * passed as is (no shell: no word splitting, quoting, globbing or expansion). A `file` that cannot
 * be started is a `spawn-error` (a shell would have exited 127).
 */
export interface RunArgvOptions extends RunOptionsBase {
  readonly file: string;
  readonly args: readonly string[];
  readonly command?: undefined;
}

/** What every run takes, whatever starts it. */
export interface RunOptionsBase {
  /** The working directory (the project directory). A missing directory is a `spawn-error`. */
  readonly cwd: string;
  /**
   * Written to stdin, then stdin is closed: a string (sent as UTF-8) or bytes, which are passed
   * through without a copy (serialize a large payload once, to a Buffer). A hook that never reads
   * stdin is fine: the broken pipe is ignored.
   */
  readonly input: string | Uint8Array;
  /**
   * Variables added over the inherited environment (e.g. `HOOKWIRE_PROJECT_DIR`). The direct
   * runner inherits this process's environment at each run; the helper runner inherits it as it
   * was when the helper started, so anything a hook needs that may change belongs here.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Deadline in milliseconds from the spawn; the result settles as `timeout` when it passes. */
  readonly timeoutMs: number;
  /** Milliseconds between SIGTERM and SIGKILL to the process group. Default 2000. */
  readonly killGraceMs?: number;
  /**
   * Bytes kept per stream (stdout, stderr). Default 1 MiB. Bytes beyond it are read and
   * discarded (never buffered), so a flood neither blocks the hook nor grows memory; the stream's
   * `…Truncated` flag reports it.
   */
  readonly maxOutputBytes?: number;
  /** Cancellation: on abort the run settles as `aborted` and the group is killed as at the deadline. */
  readonly signal?: AbortSignal;
}

/**
 * How a run ended. `exited`: the shell exited by itself (any exit code, including 127 for a
 * command that does not exist, or killed by a signal nobody in hookwire sent). `timeout`: the
 * deadline passed. `aborted`: the caller's signal fired (or the runner was closed). `spawn-error`:
 * the shell could not be started (missing working directory, no `/bin/sh`, the spawn helper
 * died while the hook ran).
 */
export type CommandTermination = 'exited' | 'timeout' | 'aborted' | 'spawn-error';

/**
 * The outcome of one run. For `timeout` and `aborted`, `exitCode` and `signal` are `null`: the
 * outcome settles at the deadline (or abort) while the process group is still being killed, and
 * the output is what the hook wrote until then.
 */
export interface CommandResult {
  /** The shell's exit code when it exited by itself, else `null`. */
  readonly exitCode: number | null;
  /** The signal that ended the shell when it exited on a signal (e.g. `SIGSEGV`), else `null`. */
  readonly signal: string | null;
  /** stdout decoded as UTF-8, at most `maxOutputBytes` bytes (cut at a character boundary). */
  readonly stdout: string;
  /** stderr decoded as UTF-8, at most `maxOutputBytes` bytes (cut at a character boundary). */
  readonly stderr: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  /** Milliseconds from the spawn to the settled outcome. */
  readonly durationMs: number;
  readonly termination: CommandTermination;
  /** Why the shell could not be started; present exactly when `termination` is `spawn-error`. */
  readonly spawnError?: string;
}

/**
 * Runs command hooks as supervised process groups. `run` never rejects for anything a hook does
 * (crash, timeout, flood, missing command, missing cwd): it resolves with a `CommandResult`. It
 * rejects only for programmer errors (invalid options, a closed runner).
 */
export interface CommandRunner {
  run(options: RunCommandOptions): Promise<CommandResult>;
  /**
   * Aborts the runs in flight (they resolve as `aborted`) and resolves once every process group
   * this runner started has been killed (and, for the helper runner, the helper has exited).
   * Idempotent; `run` after `close` rejects.
   */
  close(): Promise<void>;
}

function isNonNegativeFinite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Throws a `CommandRunnerError` naming the first invalid option and what to pass instead. */
export function validateRunCommandOptions(options: RunCommandOptions): void {
  const fail = (message: string): never => {
    throw new CommandRunnerError('command_runner_options_invalid', message);
  };
  // Read as the caller's plain object: a JavaScript caller may pass anything.
  const given = options as { readonly command?: unknown; readonly file?: unknown };
  if (given.file !== undefined || options.args !== undefined) {
    if (given.command !== undefined)
      fail(
        'RunCommandOptions takes either `command` (a shell command) or `file` and `args`, not both.',
      );
    if (typeof options.file !== 'string' || options.file === '')
      fail('RunCommandOptions.file must be the program to run (a non-empty path or name).');
    if (!Array.isArray(options.args) || options.args.some((arg) => typeof arg !== 'string'))
      fail('RunCommandOptions.args must be an array of strings (pass [] for no arguments).');
  } else if (typeof options.command !== 'string' || options.command.trim() === '') {
    fail('RunCommandOptions.command must be a non-empty shell command string.');
  }
  if (typeof options.cwd !== 'string' || options.cwd === '') {
    fail('RunCommandOptions.cwd must be the path of the working directory (a non-empty string).');
  }
  if (typeof options.input !== 'string' && !(options.input instanceof Uint8Array)) {
    fail('RunCommandOptions.input must be a string or a Uint8Array (pass "" for no input).');
  }
  if (!isNonNegativeFinite(options.timeoutMs) || options.timeoutMs === 0) {
    fail(
      `RunCommandOptions.timeoutMs must be a positive number of milliseconds; got ${String(options.timeoutMs)}.`,
    );
  }
  if (options.killGraceMs !== undefined && !isNonNegativeFinite(options.killGraceMs)) {
    fail(
      `RunCommandOptions.killGraceMs must be a non-negative number of milliseconds; got ${String(options.killGraceMs)}.`,
    );
  }
  if (
    options.maxOutputBytes !== undefined &&
    !(Number.isInteger(options.maxOutputBytes) && options.maxOutputBytes >= 0)
  ) {
    fail(
      `RunCommandOptions.maxOutputBytes must be a non-negative integer byte count; got ${String(options.maxOutputBytes)}.`,
    );
  }
  if (options.env !== undefined) {
    for (const [name, value] of Object.entries(options.env)) {
      if (typeof value !== 'string') {
        fail(`RunCommandOptions.env.${name} must be a string; got ${typeof value}.`);
      }
    }
  }
}
