/**
 * A submitted prompt, for every host: UserPromptSubmit, and the context that goes around the
 * prompt — SessionStart's context (waiting for the first prompt) before it, the hook's
 * `additionalContext` after it. A deny discards the prompt (the session context waits for the
 * next one) and ends the turn `stopped`, the run going on; a stop ends the turn and the run.
 */
import type { LifecycleHooks } from './lifecycle-hooks.ts';
import { deniedTurnEnd } from './turn-end.ts';

export type PromptDecision =
  /**
   * Send `prompt` (the submitted text, or a hook's rewrite of it) with `before` / `after` around
   * it (either may be absent).
   */
  | {
      readonly kind: 'submit';
      readonly prompt: string;
      /** True when a hook rewrote the prompt's text. */
      readonly rewritten: boolean;
      readonly before: string | undefined;
      readonly after: string | undefined;
    }
  /**
   * The prompt is discarded; `sessionContext` waits for the next prompt. `reason` is the hook's,
   * `turnEnd` what the turn ends with.
   */
  | { readonly kind: 'deny'; readonly reason: string; readonly turnEnd: string }
  /** The turn and the run end; the prompt (with the session context) is still on record. */
  | { readonly kind: 'stop'; readonly reason: string; readonly before: string | undefined };

const nonEmpty = (text: string | undefined): string | undefined =>
  text === undefined || text === '' ? undefined : text;

/**
 * UserPromptSubmit for `prompt`, with `sessionContext` waiting before it. Returns at once, with no
 * promise, when no hook observes the event.
 */
export function submitPrompt(
  hooks: LifecycleHooks,
  prompt: string,
  sessionContext: string | undefined,
): PromptDecision | Promise<PromptDecision> {
  const before = nonEmpty(sessionContext);
  const fired = hooks.fire('promptSubmit', () => ({ prompt }));
  if (fired === undefined)
    return { kind: 'submit', prompt, rewritten: false, before, after: undefined };
  return fired.then((action): PromptDecision => {
    if (action.kind === 'deny')
      return {
        kind: 'deny',
        reason: action.reason,
        turnEnd: deniedTurnEnd('UserPromptSubmit', action.reason),
      };
    if (action.kind === 'stop') return { kind: 'stop', reason: action.reason, before };
    const rewritten = action.prompt !== undefined && action.prompt !== prompt;
    return {
      kind: 'submit',
      prompt: rewritten ? (action.prompt ?? prompt) : prompt,
      rewritten,
      before,
      after: nonEmpty(action.additionalContext),
    };
  });
}
