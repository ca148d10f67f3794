/**
 * How a decision point reaches the hooks, whatever the host: `fire` one event and get its
 * settled action, `report` a warning. The loop's `RunState` is one (its `fire` settles no longer
 * than the run lives and reports outcomes on the event stream); `stackHooks` makes one of a
 * `HookStack` and a hook context for the embeddings (the AI SDK, the Claude Agent SDK bridge).
 *
 * The one performance contract: `fire` returns `undefined` **synchronously** when no hook
 * observes the event (nothing is built or called), so a decision point whose events nobody
 * observes returns its decision without a promise, and its host awaits nothing.
 */
import type { HookContext, HookReport } from '../events/context.ts';
import { HOOK_METHOD, isPromiseLike, type EventMap, type HookEventKind } from '../events/index.ts';
import type { Awaitable } from '../hooks/agent-hook.ts';
import type { HookStack } from '../hooks/stack/hook-stack.ts';

// The lifecycle's callers (the loop, the AI SDK adapter) take the check from here.
export { isPromiseLike };

/** The settled action of `kind`. */
export type LifecycleAction<Kind extends HookEventKind> = Awaited<EventMap[Kind]['answer']>;

/** What an outcome is reported as (see `LifecycleHooks.fire`). */
export interface ReportedOutcome {
  readonly kind: string;
  readonly reason?: string;
}

/** The hooks of one run, as a decision point sees them. */
export interface LifecycleHooks {
  /**
   * Fires `kind` when some hook observes it (building the event only then) and resolves to its
   * settled action; `undefined` at once, not a promise, when none does. `outcome` says how the
   * action is reported, for hosts that report outcomes.
   */
  fire<Kind extends HookEventKind>(
    kind: Kind,
    event: () => EventMap[Kind]['event'],
    outcome?: (action: LifecycleAction<Kind>) => ReportedOutcome,
  ): Promise<LifecycleAction<Kind>> | undefined;
  /**
   * Fires a closing event (StopFailure, Interrupt) that runs after the run's own signal may have
   * fired, within the host's closing budget; never rejects. Absent: `fire` is used.
   */
  fireClosing?<Kind extends HookEventKind>(
    kind: Kind,
    event: () => EventMap[Kind]['event'],
  ): Promise<void>;
  /** Surfaces a hook warning or message. */
  report(report: HookReport): void;
}

/**
 * The hooks of `stack` seen through `context` (the embeddings' runs): an event fires when the
 * stack observes it. `closing` fires a closing event within the host's budget.
 */
export function stackHooks(
  stack: HookStack,
  context: () => HookContext,
  report: (report: HookReport) => void,
  closing?: (
    kind: HookEventKind,
    fire: (context: HookContext) => Awaitable<unknown>,
  ) => Promise<unknown>,
): LifecycleHooks {
  const call = <Kind extends HookEventKind>(
    kind: Kind,
    on: HookContext,
    event: EventMap[Kind]['event'],
  ): Awaitable<LifecycleAction<Kind>> => {
    const method = stack[HOOK_METHOD[kind]] as unknown as (
      context: HookContext,
      event: EventMap[Kind]['event'],
    ) => Awaitable<LifecycleAction<Kind>>;
    return method.call(stack, on, event);
  };
  return {
    fire(kind, event) {
      if (!stack.observes(kind)) return undefined;
      const answer = call(kind, context(), event());
      return isPromiseLike(answer) ? answer : Promise.resolve(answer);
    },
    ...(closing === undefined
      ? {}
      : {
          async fireClosing(kind, event) {
            if (!stack.observes(kind)) return;
            await closing(kind, (on) => call(kind, on, event()));
          },
        }),
    report,
  };
}
