import { deferredRunner } from '../../supervision/deferred-runner.ts';
import {
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  type CommandResult,
  type CommandRunner,
} from '../../supervision/command-runner.ts';
import {
  confineCommand,
  credentialVariables,
  type SandboxOptions,
} from '../../supervision/process-confinement.ts';
import { envFilePrefix } from '../../hook-kinds/dialects/claude/claude-env-file.ts';
import type { Tool, ToolExecutionContext } from '../../loop/tool.ts';
import { ToolError } from './tool-error.ts';

/** Options of the `shell` tool. */
export interface ShellToolOptions {
  /**
   * Runs the commands. Default: a helper runner of its own (`createHelperRunner`), started on
   * first use, which needs no closing (an idle helper does not keep the process alive, and it
   * kills what the commands left when this process exits, however it exits). Pass the run's
   * shared `createCommandRunner()` (the one command hooks use) to share its helper; its owner
   * closes it. Either way commands are contained exactly like command hooks.
   */
  readonly runner?: CommandRunner;
  /** Deadline when the call gives no `timeout`, in seconds. Default 120. */
  readonly defaultTimeoutSeconds?: number;
  /** The largest `timeout` a call may ask for, in seconds. Default 600. */
  readonly maxTimeoutSeconds?: number;
  /** Milliseconds between SIGTERM and SIGKILL to the command's process group. Default 2000. */
  readonly killGraceMs?: number;
  /** Bytes of stdout and of stderr kept (each); the rest is dropped with a note. Default 1 MiB. */
  readonly maxOutputBytes?: number;
  /** Variables added over the inherited environment of every command (never scrubbed). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * A file of shell lines (`export X=Y`) run before every command, its output discarded: Claude
   * Code's `CLAUDE_ENV_FILE`, which its `SessionStart` hooks append to (see
   * `hook-kinds/dialects/claude-env-file.ts`). Read at each call; absent or empty: nothing.
   */
  readonly envFile?: string;
  /**
   * The inherited environment loses its credentials (`credentialVariables`: `*_API_KEY`,
   * `*_TOKEN`, `*_SECRET*`, `*PASSWORD*`, `*_PWD`, `*_KEY`, `*_PAT`, URLs with a password, AWS keys, and any copy of their values), so a
   * prompt-injected model cannot read them with `env`. `pass` names variables to keep anyway
   * (the `passEnvironment` setting). `scrub: false` inherits everything. Default `{scrub: true}`.
   */
  readonly environment?: { readonly scrub?: boolean; readonly pass?: readonly string[] };
  /**
   * Run every command under bubblewrap (`--sandbox`): the project directory (the call's cwd) and
   * `writableDirectories` writable, the rest of the file system read-only, a private `/tmp`, no
   * network unless `network`. Default: no sandbox.
   */
  readonly sandbox?: Omit<SandboxOptions, 'writableDirectories'> & {
    readonly writableDirectories?: readonly string[];
  };
}

/**
 * What the model sees after a command ran to completion, whatever its exit code. `signal` is set
 * when the shell died on a signal nobody in hookwire sent (`exitCode` is then `null`); `truncated`
 * says which stream was cut at the output cap.
 */
export interface ShellToolResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly signal?: string;
  readonly truncated?: string;
}

interface ShellArguments {
  readonly command: string;
  readonly timeout?: number;
}

const DEFAULT_TIMEOUT_SECONDS = 120;
const MAX_TIMEOUT_SECONDS = 600;
// How much of each stream a timeout or cancellation error quotes: the end, where failures show.
const ERROR_OUTPUT_TAIL = 4000;

/**
 * `shell {command, timeout?}`: runs `/bin/sh -c command` in the run's cwd, supervised like a
 * command hook: its own process group, a deadline (`timeout` seconds, default 120, at most 600),
 * SIGTERM to the whole group then SIGKILL after a grace, stdout and stderr capped (1 MiB each),
 * and the group killed when the run is cancelled. stdin is empty. A command that exits, with any
 * code, resolves to a `ShellToolResult`: a non-zero exit is information for the model, not a
 * failure. A timeout, a cancellation or a shell that cannot start throws a `ToolError`.
 */
export function shellTool(options: ShellToolOptions = {}): Tool {
  const defaultTimeoutSeconds = options.defaultTimeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const maxTimeoutSeconds = options.maxTimeoutSeconds ?? MAX_TIMEOUT_SECONDS;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  let runner = options.runner;

  return {
    declaration: {
      name: 'shell',
      description:
        'Run a shell command with /bin/sh in the project directory and return its exit code, ' +
        'stdout and stderr. A non-zero exit code is returned, not raised. The command is killed, ' +
        `with everything it started, after \`timeout\` seconds (default ${defaultTimeoutSeconds}, at ` +
        `most ${maxTimeoutSeconds}). stdin is empty, so do not run interactive programs. stdout and ` +
        `stderr are each cut after ${maxOutputBytes} bytes.`,
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', minLength: 1, description: 'The command line to run.' },
          timeout: {
            type: 'number',
            exclusiveMinimum: 0,
            maximum: maxTimeoutSeconds,
            description: `Seconds before the command is killed; default ${defaultTimeoutSeconds}.`,
          },
          description: {
            type: 'string',
            description:
              'What the command does, in a few words (for hooks and logs; it does not change what runs).',
          },
        },
        required: ['command'],
        additionalProperties: false,
      },
    },
    async execute(args: unknown, context: ToolExecutionContext): Promise<ShellToolResult> {
      const { command, timeout } = args as ShellArguments;
      // Clamped as well as declared: a caller that skipped validation still gets a bounded run.
      const timeoutSeconds = Math.min(timeout ?? defaultTimeoutSeconds, maxTimeoutSeconds);
      // Its module loads with the first call: a run that never spawns never loads it.
      runner ??= deferredRunner(async () =>
        (await import('../../supervision/helper-runner.ts')).createHelperRunner(),
      );
      const scrub = options.environment?.scrub ?? true;
      const given = new Set(Object.keys(options.env ?? {}));
      const unsetEnv = scrub
        ? credentialVariables(process.env, options.environment?.pass).filter(
            (name) => !given.has(name),
          )
        : [];
      const sandbox = options.sandbox;
      const prefix = options.envFile === undefined ? '' : await envFilePrefix(options.envFile);
      const result = await runner.run({
        command: confineCommand(prefix + command, context.cwd, {
          unsetEnv,
          ...(sandbox === undefined
            ? {}
            : {
                sandbox: {
                  ...sandbox,
                  writableDirectories: [context.cwd, ...(sandbox.writableDirectories ?? [])],
                },
              }),
        }),
        cwd: context.cwd,
        input: '',
        timeoutMs: timeoutSeconds * 1000,
        killGraceMs,
        maxOutputBytes,
        signal: context.signal,
        ...(options.env === undefined ? {} : { env: options.env }),
      });
      switch (result.termination) {
        case 'exited':
          return toShellResult(result, maxOutputBytes);
        case 'timeout':
          throw new ToolError(
            'shell',
            'shell_timeout',
            `The command timed out after ${timeoutSeconds} s and was killed with everything it started. ` +
              `Give a larger timeout (at most ${maxTimeoutSeconds}) or a faster command.${outputSoFar(result)}`,
          );
        case 'aborted':
          throw new ToolError(
            'shell',
            'shell_aborted',
            `The command was cancelled and killed.${outputSoFar(result)}`,
          );
        case 'spawn-error':
          throw new ToolError(
            'shell',
            'shell_spawn_failed',
            `The command could not be started: ${result.spawnError ?? 'unknown reason'}`,
          );
      }
    },
  };
}

function toShellResult(result: CommandResult, maxOutputBytes: number): ShellToolResult {
  const cut = [result.stdoutTruncated ? 'stdout' : '', result.stderrTruncated ? 'stderr' : '']
    .filter((name) => name !== '')
    .join(' and ');
  return {
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    ...(result.signal === null ? {} : { signal: result.signal }),
    ...(cut === '' ? {} : { truncated: `${cut} cut after the first ${maxOutputBytes} bytes` }),
  };
}

/** The end of what the command printed before it was stopped, for the error message. */
function outputSoFar(result: CommandResult): string {
  const tail = (text: string) =>
    text.length > ERROR_OUTPUT_TAIL ? `…${text.slice(text.length - ERROR_OUTPUT_TAIL)}` : text;
  let quoted = '';
  if (result.stdout !== '') quoted += `\nstdout before it stopped:\n${tail(result.stdout)}`;
  if (result.stderr !== '') quoted += `\nstderr before it stopped:\n${tail(result.stderr)}`;
  return quoted;
}
