/**
 * The typed in-process hook interface. Every method is optional: a hook implements the events it
 * cares about. A method may return its action directly or as a promise (model selection:
 * directly only); returning synchronously keeps dispatch cheap. Command hooks configured in
 * settings files are adapted into this same interface, so both kinds compose through one
 * `HookStack`.
 *
 * The methods are mapped from the event catalogue (`src/events/catalogue.ts`): one per event,
 * `on<Kind>` (`onToolCall`, `onStop`, …), taking the event's in-process type and answering with
 * its action. Each event's meaning and composition rule are stated in its module
 * (`src/events/<event>.ts`) and on its action type.
 */
import type { EventMap, HookContext, HookEventKind } from '../events/index.ts';

export type { Awaitable } from '../events/index.ts';

/** One optional method per event of the catalogue. */
export type AgentHookMethods = {
  [Kind in HookEventKind as EventMap[Kind]['method']]?: (
    context: HookContext,
    event: EventMap[Kind]['event'],
  ) => EventMap[Kind]['answer'];
};

export interface AgentHook extends AgentHookMethods {
  /** A name for diagnostics (`HookError.hookName`, warnings). */
  readonly name?: string;

  /**
   * Interest hint: when it returns false for a kind, the stack skips this hook for that event, and
   * the loop does not build events nobody observes (deltas above all). Default: the kinds whose
   * method the hook implements.
   */
  observes?(kind: HookEventKind): boolean;
}
