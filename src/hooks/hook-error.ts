import { HookwireError } from '../content/index.ts';

/**
 * A hook threw, rejected or returned something that is not an action of its event. Names the
 * hook (its `name`, else its class name, else its one-based position `hook #i` in the stack), the
 * event kind (`toolCall`, `stop`, …) and keeps the original error as `cause`.
 *
 * Wrapped once: a `HookError` raised inside a nested stack reaches the outer stack unchanged.
 * Whether it fails the run or is recorded as a warning is the stack's `onHookError` choice.
 */
export class HookError extends HookwireError {
  readonly hookName: string;
  readonly event: string;

  constructor(options: { hookName: string; event: string; cause: unknown }) {
    super(
      'hook_failed',
      `hook "${options.hookName}" failed on ${options.event}: ${describeCause(options.cause)}`,
      { cause: options.cause },
    );
    this.name = 'HookError';
    this.hookName = options.hookName;
    this.event = options.event;
  }

  /** True for a `HookError` from any copy of this module. */
  static isHookError(error: unknown): error is HookError {
    return HookwireError.isInstance(error) && error.code === 'hook_failed';
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) return cause.message === '' ? cause.name : cause.message;
  if (typeof cause === 'string') return cause;
  try {
    return `non-error value ${JSON.stringify(cause)}`;
  } catch {
    return `non-error value ${String(cause)}`;
  }
}
