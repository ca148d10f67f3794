/**
 * What one event of the catalogue states about itself, in one object: its kind and hook method,
 * the action kinds a hook may answer with, how a stack composes the answers of its members, and
 * (for the events command hooks can register for) its external side: name, aliases, matcher
 * field, what an external hook may do there, its wire schemas and its mappings to and from the
 * payload and from a combined command-hook outcome.
 *
 * Each event module (`src/events/<event>.ts`) exports one `EventDefinition`; `catalogue.ts`
 * lists them once and derives every table from them. See `README.md` for how to add one.
 */
import type { z } from 'zod';
import type { CombinedOutcome } from './combined-outcome.ts';

/** A value or a promise of it: hook methods may answer either way. */
export type Awaitable<T> = T | Promise<T>;

/**
 * True for a promise or any other thenable (what `await` waits for): the one check the stack,
 * the lifecycle, the loop and the in-process hook kinds use to stay synchronous when an answer is.
 */
export function isPromiseLike<T>(value: Awaitable<T>): value is Promise<T>;
export function isPromiseLike(value: unknown): value is PromiseLike<unknown>;
export function isPromiseLike(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Returned by `Composition.accept` to go on to the next member. */
export const NEXT: unique symbol = Symbol('next hook');
export type Next = typeof NEXT;

/** Separator used when a stack joins `additionalContext` strings or `Stop` block reasons. */
export const JOIN_SEPARATOR = '\n';

/** `later` appended to `earlier` with `JOIN_SEPARATOR` (or `later` alone). */
export function joinText(earlier: string | undefined, later: string): string {
  return earlier === undefined ? later : earlier + JOIN_SEPARATOR + later;
}

/** The `kind` of each member of an action union. */
export type ActionKind<Action> = Action extends { readonly kind: infer Kind } ? Kind : never;

/**
 * How a `HookStack` composes its members' answers for one event, in registration order. The
 * stack's driver calls members one after another (synchronously until the first promise):
 *
 * - a member answering exactly `proceed` (the shared "no opinion" value) is passed over;
 * - any other valid answer goes to `accept` with the event's state (created by `start` at the
 *   first such answer), which returns `NEXT` to go on or the stack's final answer to
 *   short-circuit;
 * - after the last member the stack answers `finish(state)`, or `proceed` when no member acted.
 *
 * A member that throws, rejects or answers with something that is not one of the event's action
 * kinds never reaches `accept` (see `HookStackOptions.onHookError`).
 */
export interface Composition<Event, Action, State> {
  /** The answer that means "no opinion": `continue`, `run`, `keep`, or `undefined` (defer). */
  readonly proceed: Action;
  /** The state of one dispatch, created at the first answer that is not `proceed`. */
  start(event: Event): State;
  /** Takes one member's valid answer; returns `NEXT` to go on, or the stack's final answer. */
  accept(state: State, action: Action, member: AnsweringMember): Action | Next;
  /** The event the next member sees once `state` exists (chained rewrites applied). */
  eventFor(state: State, event: Event): Event;
  /** The stack's answer after the last member, when some member acted. */
  finish(state: State): Action;
}

/** The member whose answer `Composition.accept` takes, for warnings about it. */
export interface AnsweringMember {
  /** Its diagnostics name (`HookStack.nameOf`). */
  name(): string;
  /** Reports a warning about its answer through `context.report`, naming it and the event. */
  warn(text: string): void;
}

/** What an external (command) hook may do on an event. */
export interface ExternalPowers {
  /** A denial (exit 2, `decision: "deny"`/`"block"`, `permissionDecision: "deny"`) applies. */
  readonly deny: boolean;
  /** `continue: false` stops the run (else it is ignored with a warning). */
  readonly stop: boolean;
  /** Plain-text stdout is context for the model (else it is shown as a message). */
  readonly textIsContext: boolean;
  /**
   * What a `failClosed` hook that cannot answer stands for: `deny` where a denial applies, `stop`
   * where only stopping does, `no-tools` on tool selection (the tool choice becomes `none`);
   * `undefined` on observe-only events, where `failClosed` is a configuration error.
   */
  readonly failClosed: 'deny' | 'stop' | 'no-tools' | undefined;
}

/** Reasons built from a combined outcome, for `toAction` (joined, or a default naming the hook). */
export interface OutcomeReasons {
  /** The joined stop reasons, or `stopped by <hook>`. */
  stop(): string;
  /** The joined deny reasons, or `denied by <hook>`. */
  deny(): string;
  /** The joined additional contexts, `undefined` when none. */
  context(): string | undefined;
}

/**
 * The external side of an event: everything a command hook (and any other external hook kind)
 * needs. `Input` is the event's own payload fields (after the base fields), `Specific` its
 * decoded `hookSpecificOutput` fields.
 */
export interface ExternalSide<
  Name extends string,
  Event,
  Action,
  Input,
  Specific,
  Alias extends string = never,
> {
  /** The canonical name (Claude Code lineage). */
  readonly name: Name;
  /**
   * Type carrier, never set: lets the catalogue derive `HookInputFieldsMap` and
   * `HookSpecificOutputMap` from the definitions.
   */
  readonly types?: { readonly input: Input; readonly specific: Specific };
  /** Other names a settings file may register under (Gemini CLI), each naming only this event. */
  readonly aliases: readonly Alias[];
  /** The payload field a group's matcher is matched against; `undefined`: the event takes none. */
  readonly matcher: string | undefined;
  readonly can: ExternalPowers;
  /**
   * The zod shape of the payload's own fields (the base fields come first). A function, called
   * once when the event's input schema is first needed: no zod schema is built at import (see
   * `src/wire/lazy.ts`).
   */
  readonly input: () => z.core.$ZodShape;
  /** The zod shape of `hookSpecificOutput` (besides `hookEventName`), built as `input` is. */
  readonly output: () => z.core.$ZodShape;
  /** The payload fields for an in-process event. */
  toPayload(event: Event): Input;
  /** The in-process event for a payload (`hooks fire`). The payload has been validated. */
  fromPayload(payload: Input): Event;
  /** The action for the combined outcome of a group's hooks. */
  toAction(outcome: CombinedOutcome, event: Event, reasons: OutcomeReasons): Action;
  /**
   * What a stack's final action changes, in this event's output fields (`hooks fire`);
   * `outcomes` are the combined outcomes of the groups that ran, in configuration order.
   */
  describeAction(action: Action, outcomes: readonly CombinedOutcome[]): Record<string, unknown>;
  /**
   * The payload the next hook of a `sequential` group sees, given what the previous hook
   * printed in `hookSpecificOutput`. Default: unchanged.
   */
  chainPayload?(payload: Input, specific: Readonly<Record<string, unknown>>): Input;
  /**
   * Event-specific checks and normalisation of a decoded `hookSpecificOutput` (field aliases,
   * mutually exclusive fields). Returns the problems found and the normalised object.
   */
  normalizeOutput?(specific: Readonly<Record<string, unknown>>): {
    readonly problems: readonly string[];
    readonly specific: Readonly<Record<string, unknown>>;
  };
}

/**
 * One event of the catalogue. `Kind` is its in-process kind, `Method` the `AgentHook` method
 * that handles it, `Event`/`Action` its in-process types.
 */
export interface EventDefinition<
  Kind extends string,
  Method extends string,
  Event,
  Action,
  External extends ExternalSide<string, Event, Action, unknown, unknown, string> | undefined =
    undefined,
  Synchronous extends boolean = false,
> {
  readonly kind: Kind;
  readonly method: Method;
  /**
   * True when hooks must answer synchronously (model selection): the method's type returns the
   * action itself, and a promise answer is a hook error. Default false.
   */
  readonly synchronous?: Synchronous;
  /** The action kinds a hook may answer with (every other value is a hook error). */
  readonly actionKinds: readonly ActionKind<Action>[];
  /** How a stack composes its members' answers (the rule, beside the action type's doc). */
  readonly compose: Composition<Event, Action, unknown>;
  /** The external side; `undefined` for fine-grained events command hooks cannot register for. */
  readonly external: External;
}

/** The in-process event type of a definition. */
export type EventOf<Definition> = Definition extends {
  readonly compose: Composition<infer Event, unknown, unknown>;
}
  ? Event
  : never;
/** The action type of a definition. */
export type ActionOf<Definition> = Definition extends {
  readonly compose: { readonly proceed: infer Action };
}
  ? Action
  : never;
