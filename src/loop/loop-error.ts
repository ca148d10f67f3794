import { HookwireError } from '../content/index.ts';

/**
 * A run could not go on: an unresolved invalid tool call (`invalid_tool_call`), a hook that threw
 * (`hook_failed`), a session used wrongly (`session_busy`, `session_closed`, `session_not_found`).
 * `event` names the hook event concerned, when there is one.
 */
export class LoopError extends HookwireError {
  readonly event?: string;

  constructor(code: string, message: string, options?: { event?: string; cause?: unknown }) {
    super(code, message, { cause: options?.cause });
    this.name = 'LoopError';
    if (options?.event !== undefined) this.event = options.event;
  }
}

/** The error a cancelled await rejects with; never surfaces as a run's `error`. */
export class CancelledError extends HookwireError {
  constructor(reason: string) {
    super('cancelled', reason);
    this.name = 'CancelledError';
  }
}
