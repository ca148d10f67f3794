/**
 * How a hook's "no" leaves an AI SDK call. The AI SDK has no notion of a turn a hook ends, so a
 * deny or a stop that must end the call (BeforeModel, AfterModel, UserPromptSubmit) rejects the
 * `generateText` / `streamText` call with one of these; the app tells them apart from provider
 * errors with `instanceof` (or `HookwireError.isInstance` and `code`).
 */
import { HookwireError } from '../../content/index.ts';

/** A hook denied the prompt, the model call or the model's output: this call ends, the session goes on. */
export class HookDeniedError extends HookwireError {
  /** The external event whose hook denied (`UserPromptSubmit`, `BeforeModel`, `AfterModel`). */
  readonly event: string;
  /** The hook's reason. */
  readonly reason: string;

  constructor(event: string, reason: string) {
    super('hook_denied', `${event} denied: ${reason}`);
    this.name = 'HookDeniedError';
    this.event = event;
    this.reason = reason;
  }
}

/** A hook asked to stop the run (`continue: false`, or an in-process `stop` action). */
export class HookStoppedError extends HookwireError {
  readonly event: string;
  readonly reason: string;

  constructor(event: string, reason: string) {
    super('hook_stopped', `${event} stopped the run: ${reason}`);
    this.name = 'HookStoppedError';
    this.event = event;
    this.reason = reason;
  }
}
