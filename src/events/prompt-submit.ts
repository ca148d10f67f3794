/**
 * `promptSubmit` (external `UserPromptSubmit`, alias `BeforeAgent`): a prompt was submitted,
 * before the model sees it.
 */
import { z } from 'zod';
import {
  NEXT,
  joinText,
  type Composition,
  type EventDefinition,
  type ExternalSide,
} from './define-event.ts';
import { additionalContextOutput, CONTINUE } from './shared.ts';

/** A prompt was submitted, before the model sees it (external `UserPromptSubmit`). */
export interface PromptSubmitEvent {
  readonly prompt: string;
}

/**
 * A prompt was submitted (external `UserPromptSubmit`). Contexts join in order; the first `deny`
 * (prompt discarded from history) or `stop` (prompt kept, turn not run) short-circuits. A
 * `continue` with `prompt` rewrites the prompt's text (a Claude Code mod's
 * `next({ ...e, text })`): later hooks see the rewritten prompt, the last rewrite is what the
 * model reads, and a later deny or stop discards it.
 */
export type PromptSubmitAction =
  | { readonly kind: 'continue'; readonly additionalContext?: string; readonly prompt?: string }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const PromptSubmitAction = {
  continue: (additionalContext?: string): PromptSubmitAction =>
    additionalContext === undefined ? CONTINUE : { kind: 'continue', additionalContext },
  deny: (reason: string): PromptSubmitAction => ({ kind: 'deny', reason }),
  stop: (reason: string): PromptSubmitAction => ({ kind: 'stop', reason }),
  /** Replaces the prompt's text (and adds context after it, when given). */
  rewrite: (prompt: string, additionalContext?: string): PromptSubmitAction =>
    additionalContext === undefined
      ? { kind: 'continue', prompt }
      : { kind: 'continue', prompt, additionalContext },
} as const;

interface PromptSubmitState {
  joined: string | undefined;
  prompt: string | undefined;
}

/** Contexts joined in order, prompt rewrites chained; the first deny or stop short-circuits. */
const promptSubmitComposition: Composition<
  PromptSubmitEvent,
  PromptSubmitAction,
  PromptSubmitState
> = {
  proceed: CONTINUE,
  start: () => ({ joined: undefined, prompt: undefined }),
  accept(state, action) {
    if (action.kind !== 'continue') return action;
    if (action.additionalContext !== undefined)
      state.joined = joinText(state.joined, action.additionalContext);
    if (action.prompt !== undefined) state.prompt = action.prompt;
    return NEXT;
  },
  eventFor: (state, event) =>
    state.prompt === undefined || state.prompt === event.prompt
      ? event
      : { ...event, prompt: state.prompt },
  finish: (state) =>
    state.prompt === undefined
      ? PromptSubmitAction.continue(state.joined)
      : PromptSubmitAction.rewrite(state.prompt, state.joined),
};

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
  compose: promptSubmitComposition,
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
