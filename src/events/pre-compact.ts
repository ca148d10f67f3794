/**
 * `preCompact` (external `PreCompact`, alias `PreCompress`): before the history is compacted.
 * Hooks may add compaction instructions.
 */
import { z } from 'zod';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import { additionalContextOutput, CONTINUE, ContextAction, joinContexts } from './shared.ts';

export const PRE_COMPACT_TRIGGERS = ['manual', 'auto'] as const;

export interface PreCompactEvent {
  readonly trigger: (typeof PRE_COMPACT_TRIGGERS)[number];
  readonly customInstructions: string | undefined;
}

/** The payload fields of `PreCompact`. */
export interface PreCompactInput {
  readonly trigger: (typeof PRE_COMPACT_TRIGGERS)[number];
  readonly custom_instructions?: string;
}

/** The `hookSpecificOutput` of `PreCompact`. */
export interface PreCompactOutput {
  readonly additionalContext?: string;
}

type External = ExternalSide<
  'PreCompact',
  PreCompactEvent,
  ContextAction,
  PreCompactInput,
  PreCompactOutput,
  'PreCompress'
>;

/** Contexts (compaction instructions) joined in order; the first stop short-circuits. */
export const preCompact: EventDefinition<
  'preCompact',
  'onPreCompact',
  PreCompactEvent,
  ContextAction,
  External
> = {
  kind: 'preCompact',
  method: 'onPreCompact',
  actionKinds: ['continue', 'stop'],
  compose: joinContexts(CONTINUE, ContextAction.continue),
  external: {
    name: 'PreCompact',
    aliases: ['PreCompress'],
    matcher: 'trigger',
    can: { deny: false, stop: true, textIsContext: false, failClosed: 'stop' },
    input: () => ({
      trigger: z.enum(PRE_COMPACT_TRIGGERS),
      custom_instructions: z.string().optional(),
    }),
    output: () => ({ additionalContext: additionalContextOutput() }),
    toPayload: (event) => ({
      trigger: event.trigger,
      ...(event.customInstructions === undefined
        ? {}
        : { custom_instructions: event.customInstructions }),
    }),
    fromPayload: (payload) => ({
      trigger: payload.trigger,
      customInstructions: payload.custom_instructions,
    }),
    toAction: (outcome, _event, reasons) =>
      outcome.stopped
        ? ContextAction.stop(reasons.stop())
        : ContextAction.continue(reasons.context()),
    describeAction: () => ({}),
  },
};
