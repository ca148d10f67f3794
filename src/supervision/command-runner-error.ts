import { HookwireError } from '../content/hookwire-error.ts';

/**
 * A programmer error in the use of a `CommandRunner`: invalid `RunCommandOptions`
 * (`command_runner_options_invalid`) or a run on a closed runner (`command_runner_closed`).
 * Hook failures are never errors: they are `CommandResult`s.
 */
export class CommandRunnerError extends HookwireError {
  constructor(code: 'command_runner_options_invalid' | 'command_runner_closed', message: string) {
    super(code, message);
    this.name = 'CommandRunnerError';
  }
}
