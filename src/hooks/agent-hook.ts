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

/**
 * Marks a hook that reports each of its runs through `HookContext.recordHookRun` itself (the
 * adapter of the external hook kinds, `hook-kinds/group/external-hook.ts`). A `HookStack` times
 * and reports every other member it calls (as kind `in-process`), and leaves nested stacks to
 * report their own members.
 */
export const REPORTS_OWN_RUNS: unique symbol = Symbol.for('hookwire.reportsOwnRuns');

/**
 * Marks a tool-call guard: when a member after it in a `HookStack` rewrites the call's arguments,
 * the stack runs the guard once more on the final arguments before the call goes on, and a
 * `skip` or `stop` it answers then is final (a rewrite it answers then is ignored, with a
 * warning: one more pass, no loop). The command-hook adapter sets it on `PreToolUse` groups of
 * the managed policy and on groups with a `failClosed` hook, so a later rewrite cannot walk past
 * them; an in-process hook may set it too.
 */
export const GUARDS_TOOL_CALLS: unique symbol = Symbol.for('hookwire.guardsToolCalls');

export interface AgentHook extends AgentHookMethods {
  /** `true`: the hook records its own runs (see `REPORTS_OWN_RUNS`); a stack does not time it. */
  readonly [REPORTS_OWN_RUNS]?: true;

  /** `true`: the hook is a tool-call guard, run again after a later rewrite (see `GUARDS_TOOL_CALLS`). */
  readonly [GUARDS_TOOL_CALLS]?: true;

  /** A name for diagnostics (`HookError.hookName`, warnings). */
  readonly name?: string;

  /**
   * Interest hint: when it returns false for a kind, the stack skips this hook for that event, and
   * the loop does not build events nobody observes (deltas above all). Default: the kinds whose
   * method the hook implements.
   */
  observes?(kind: HookEventKind): boolean;
}
