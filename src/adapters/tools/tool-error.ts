import { HookwireError } from '../../content/index.ts';

/**
 * A built-in tool could not do what it was asked (a missing file, an ambiguous edit, a command
 * that timed out). The message is written for the model: it names what went wrong and what to do
 * instead. `code` is stable (`file_not_found`, `edit_ambiguous`, `shell_timeout`, …).
 */
export class ToolError extends HookwireError {
  readonly toolName: string;

  constructor(toolName: string, code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'ToolError';
    this.toolName = toolName;
  }
}
