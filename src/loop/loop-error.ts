import { HookwireError } from '../content/index.ts';

/**
 * A run or session could not go on. `code` is one of: `invalid_tool_call` (a tool call the model
 * could not correct within its budget), `session_busy` (a second run while one is active),
 * `session_closed` (a run on a closed session), `session_not_found` (no transcript to resume),
 * `session_exists` (a new session over an existing transcript), `session_id_invalid` (an id that
 * cannot name a transcript file), `session_locked` (another live process holds the session),
 * `session_lock_failed` (the lock file could not be written: disk full, …) and
 * `transcript_write_failed` (`TranscriptWriteError`: a transcript write failed, e.g. disk full).
 * A hook that throws surfaces as `HookError` (`hook_failed`), not as a `LoopError`. `event` names
 * the hook event concerned, when there is one.
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
