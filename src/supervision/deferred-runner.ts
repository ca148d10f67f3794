import type { CommandResult, CommandRunner, RunCommandOptions } from './command-runner.ts';
import { CommandRunnerError } from './command-runner-error.ts';

/**
 * A `CommandRunner` whose implementation is created on the first `run`: `create` typically
 * imports the runner's module, so a session that never spawns (no hooks, no shell call) never
 * loads the spawn machinery (the helper runner, process containment, the supervisor: about 9 ms of
 * a CLI start). `close` before any run closes nothing and loads nothing; `run` after `close`
 * rejects, as every runner's does.
 */
export function deferredRunner(create: () => Promise<CommandRunner>): CommandRunner {
  let runner: Promise<CommandRunner> | undefined;
  let closed = false;
  return {
    async run(options: RunCommandOptions): Promise<CommandResult> {
      if (closed)
        throw new CommandRunnerError(
          'command_runner_closed',
          'This CommandRunner was closed; create a new runner to run more hooks.',
        );
      runner ??= create();
      return (await runner).run(options);
    },
    async close(): Promise<void> {
      closed = true;
      if (runner !== undefined) await (await runner).close();
    },
  };
}
