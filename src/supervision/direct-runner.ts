import type { CommandResult, CommandRunner, RunCommandOptions } from './command-runner.ts';
import { DEFAULT_KILL_GRACE_MS, validateRunCommandOptions } from './command-runner.ts';
import { createContainmentScope, killScope } from './containment.ts';
import { CommandRunnerError } from './command-runner-error.ts';
import { superviseCommand, type SupervisedOutcome, type Supervision } from './supervise-command.ts';

/** Decodes a supervised outcome's output as UTF-8 into a `CommandResult`. */
export function toCommandResult(outcome: SupervisedOutcome): CommandResult {
  return {
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    stdout: outcome.stdout.toString('utf8'),
    stderr: outcome.stderr.toString('utf8'),
    stdoutTruncated: outcome.stdoutTruncated,
    stderrTruncated: outcome.stderrTruncated,
    durationMs: outcome.durationMs,
    termination: outcome.termination,
    ...(outcome.spawnError === undefined ? {} : { spawnError: outcome.spawnError }),
  };
}

/**
 * A `CommandRunner` that spawns each hook from this process. Simple and with no extra process,
 * but every spawn forks this process, which costs more the larger its heap is
 * (see docs/decisions/0003-hook-spawn-helper.md). Contains each run like the helper does
 * (deadline, abort, close), but nothing outlives a SIGKILL of this process's group with it:
 * only the helper runner survives that to clean up (docs/decisions/0008-process-containment.md).
 */
export function createDirectRunner(): CommandRunner {
  const active = new Set<Supervision>();
  const scope = createContainmentScope();
  let graceMs = 0;
  let closing: Promise<void> | undefined;

  return {
    run(options: RunCommandOptions): Promise<CommandResult> {
      try {
        if (closing !== undefined) {
          throw new CommandRunnerError(
            'command_runner_closed',
            'This CommandRunner was closed; create a new runner to run more hooks.',
          );
        }
        validateRunCommandOptions(options);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      graceMs = Math.max(graceMs, options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
      const supervision = superviseCommand({
        ...options,
        command: options.command ?? '',
        argv: options.file === undefined ? undefined : [options.file, ...options.args],
        runTag: scope.nextTag(),
      });
      active.add(supervision);
      void supervision.reaped.then(() => active.delete(supervision));
      return supervision.outcome.then(toCommandResult);
    },

    close(): Promise<void> {
      // Then whatever left its group after a clean exit (a `setsid` daemon) goes too.
      closing ??= Promise.all(
        [...active].map((supervision) => {
          supervision.abort();
          return supervision.reaped;
        }),
      ).then(() => killScope(scope.prefix, graceMs));
      return closing;
    },
  };
}
