/**
 * `promptSubmit` (external `UserPromptSubmit`, alias `BeforeAgent`): a prompt was submitted,
 * before the model sees it.
 */
import { z } from 'zod';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import { additionalContextOutput, CONTINUE, joinContexts } from './shared.ts';

/** A prompt was submitted, before the model sees it (external `UserPromptSubmit`). */
export interface PromptSubmitEvent {
  readonly prompt: string;
}

/**
 * A prompt was submitted (external `UserPromptSubmit`). Contexts join in order; the first `deny`
 * (prompt discarded from history) or `stop` (prompt kept, turn not run) short-circuits.
 */
export type PromptSubmitAction =
  | { readonly kind: 'continue'; readonly additionalContext?: string }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const PromptSubmitAction = {
  continue: (additionalContext?: string): PromptSubmitAction =>
    additionalContext === undefined ? CONTINUE : { kind: 'continue', additionalContext },
  deny: (reason: string): PromptSubmitAction => ({ kind: 'deny', reason }),
  stop: (reason: string): PromptSubmitAction => ({ kind: 'stop', reason }),
} as const;

/** The payload fields of `UserPromptSubmit`. */
export interface UserPromptSubmitInput {
  readonly prompt: string;
}

/** The `hookSpecificOutput` of `UserPromptSubmit`. */
export interface UserPromptSubmitOutput {
  readonly additionalContext?: string;
}

type External = ExternalSide<
  'UserPromptSubmit',
  PromptSubmitEvent,
  PromptSubmitAction,
  UserPromptSubmitInput,
  UserPromptSubmitOutput,
  'BeforeAgent'
>;

/** Contexts joined in order; the first deny or stop short-circuits (contexts discarded). */
export const promptSubmit: EventDefinition<
  'promptSubmit',
  'onPromptSubmit',
  PromptSubmitEvent,
  PromptSubmitAction,
  External
> = {
  kind: 'promptSubmit',
  method: 'onPromptSubmit',
  actionKinds: ['continue', 'deny', 'stop'],
  compose: joinContexts(CONTINUE, PromptSubmitAction.continue),
  external: {
    name: 'UserPromptSubmit',
    aliases: ['BeforeAgent'],
    matcher: undefined,
    can: { deny: true, stop: true, textIsContext: true, failClosed: 'deny' },
    input: () => ({ prompt: z.string() }),
    output: () => ({ additionalContext: additionalContextOutput() }),
    toPayload: (event) => ({ prompt: event.prompt }),
    fromPayload: (payload) => ({ prompt: payload.prompt }),
    toAction(outcome, _event, reasons) {
      if (outcome.denied) return PromptSubmitAction.deny(reasons.deny());
      if (outcome.stopped) return PromptSubmitAction.stop(reasons.stop());
      return PromptSubmitAction.continue(reasons.context());
    },
    describeAction: () => ({}),
  },
};
