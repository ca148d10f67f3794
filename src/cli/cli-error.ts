import { HookwireError } from '../content/index.ts';

/**
 * A command-line problem the user can fix (a bad flag, unreadable input, no prompt): the CLI
 * prints `message` on stderr and exits with `exitCode` (default 1). `code` is
 * `cli_usage_invalid` unless told otherwise.
 */
export class CliError extends HookwireError {
  readonly exitCode: number;

  constructor(
    message: string,
    options: { code?: string; exitCode?: number; cause?: unknown } = {},
  ) {
    super(options.code ?? 'cli_usage_invalid', message, { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? 1;
  }
}
