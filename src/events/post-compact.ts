/**
 * `postCompact` (external `PostCompact`): the history was compacted; the summary now stands for
 * the older turns. Observe only.
 */
import { z } from 'zod';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import { PRE_COMPACT_TRIGGERS } from './pre-compact.ts';
import { CONTINUE, firstDecision, ObservationAction } from './shared.ts';

/** The history was compacted (external `PostCompact`). */
export interface PostCompactEvent {
  readonly trigger: (typeof PRE_COMPACT_TRIGGERS)[number];
  /** The summary that replaced the older turns. */
  readonly summary: string;
  /** Estimated context tokens before and after (see the loop's `compaction.ts`). */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/** The payload fields of `PostCompact`. */
export interface PostCompactInput {
  readonly trigger: (typeof PRE_COMPACT_TRIGGERS)[number];
  readonly summary: string;
  readonly tokens_before: number;
  readonly tokens_after: number;
}

type External = ExternalSide<
  'PostCompact',
  PostCompactEvent,
  ObservationAction,
  PostCompactInput,
  object
>;

/** Observe only: the first stop short-circuits the remaining hooks (and is otherwise ignored). */
export const postCompact: EventDefinition<
  'postCompact',
  'onPostCompact',
  PostCompactEvent,
  ObservationAction,
  External
> = {
  kind: 'postCompact',
  method: 'onPostCompact',
  actionKinds: ['continue', 'stop'],
  compose: firstDecision(CONTINUE),
  external: {
    name: 'PostCompact',
    aliases: [],
    matcher: 'trigger',
    can: { deny: false, stop: false, textIsContext: false, failClosed: undefined },
    input: () => ({
      trigger: z.enum(PRE_COMPACT_TRIGGERS),
      summary: z.string(),
      tokens_before: z.number().int().nonnegative(),
      tokens_after: z.number().int().nonnegative(),
    }),
    output: () => ({}),
    toPayload: (event) => ({
      trigger: event.trigger,
      summary: event.summary,
      tokens_before: event.tokensBefore,
      tokens_after: event.tokensAfter,
    }),
    fromPayload: (payload) => ({
      trigger: payload.trigger,
      summary: payload.summary,
      tokensBefore: payload.tokens_before,
      tokensAfter: payload.tokens_after,
    }),
    toAction: () => ObservationAction.continue(),
    describeAction: () => ({}),
  },
};
