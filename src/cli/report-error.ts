import { HookwireError } from '../content/index.ts';
import { CliError } from './cli-error.ts';

/**
 * Prints a command's failure on stderr and returns the exit status. A settings error
 * (`settings_invalid`) prints its message as is: every issue, one per line (file:line:column or
 * file, JSON path, message, fix). Other hookwire errors print their one-line message after
 * `hookwire:`; anything else is a bug and prints its stack.
 */
export function reportError(error: unknown): number {
  if (error instanceof CliError) {
    process.stderr.write(`hookwire: ${error.message}\n`);
    return error.exitCode;
  }
  if (HookwireError.isInstance(error)) {
    process.stderr.write(
      error.code === 'settings_invalid' ? `${error.message}\n` : `hookwire: ${error.message}\n`,
    );
    return 1;
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`hookwire: unexpected error: ${text}\n`);
  return 1;
}
