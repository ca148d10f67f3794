/**
 * The event catalogue: every event, listed once, in lifecycle order. Every per-event table of the
 * engine is derived from this list: the in-process kinds and their `AgentHook` methods, the
 * action kinds a hook may answer with, the external names and aliases, matcher targets, what an
 * external hook may do per event, the wire's input/output schemas (`hook-input.ts`,
 * `hook-output.ts`) and the type-level `EventMap` that `AgentHook` and `HookStack` are built
 * from, so an event without a method, an action or a composition rule does not compile.
 *
 * To add an event, see `README.md` beside this file.
 */
import type { ActionOf, Awaitable, EventOf } from './define-event.ts';
import { completionCall } from './completion-call.ts';
import { completionResponse } from './completion-response.ts';
import { interrupt } from './interrupt.ts';
import { invalidToolCall } from './invalid-tool-call.ts';
import { modelOutput } from './model-output.ts';
import { modelSelection } from './model-selection.ts';
import { modelTurnFinished } from './model-turn-finished.ts';
import { notification } from './notification.ts';
import { permissionRequest } from './permission-request.ts';
import { postCompact } from './post-compact.ts';
import { preCompact } from './pre-compact.ts';
import { promptSubmit } from './prompt-submit.ts';
import { reasoningDelta } from './reasoning-delta.ts';
import { sessionEnd } from './session-end.ts';
import { sessionStart } from './session-start.ts';
import { stop } from './stop.ts';
import { stopFailure } from './stop-failure.ts';
import { subagentStart } from './subagent-start.ts';
import { subagentStop } from './subagent-stop.ts';
import { streamFinish } from './stream-finish.ts';
import { textDelta } from './text-delta.ts';
import { toolCall } from './tool-call.ts';
import { toolCallDelta } from './tool-call-delta.ts';
import { toolFailure } from './tool-failure.ts';
import { toolResult } from './tool-result.ts';
import { toolSelection } from './tool-selection.ts';

/**
 * Every event, in lifecycle order. The external events appear in the order of
 * `HOOK_EVENT_NAMES` (the order of the docs, the schemas and `hooks list`).
 */
export const EVENTS = [
  sessionStart,
  promptSubmit,
  completionCall,
  toolSelection,
  modelSelection,
  modelOutput,
  textDelta,
  reasoningDelta,
  toolCallDelta,
  streamFinish,
  completionResponse,
  modelTurnFinished,
  invalidToolCall,
  toolCall,
  permissionRequest,
  toolResult,
  toolFailure,
  subagentStart,
  subagentStop,
  stop,
  stopFailure,
  interrupt,
  preCompact,
  postCompact,
  notification,
  sessionEnd,
] as const;

type Definition = (typeof EVENTS)[number];

/** An in-process event kind (`toolCall`, `textDelta`, …): one per `AgentHook` method. */
export type HookEventKind = Definition['kind'];

type DefinitionOf<Kind extends HookEventKind> = Extract<Definition, { readonly kind: Kind }>;

/**
 * The type-level catalogue: per kind, its in-process event, its action and its method.
 * `AgentHook` and `HookStack` are mapped from it.
 */
export type EventMap = {
  readonly [Kind in HookEventKind]: {
    readonly event: EventOf<DefinitionOf<Kind>>;
    readonly action: ActionOf<DefinitionOf<Kind>>;
    readonly method: DefinitionOf<Kind>['method'];
    /** What the method returns: the action, or (all but synchronous events) a promise of it. */
    readonly answer: DefinitionOf<Kind> extends { readonly synchronous?: true }
      ? ActionOf<DefinitionOf<Kind>>
      : Awaitable<ActionOf<DefinitionOf<Kind>>>;
  };
};

/** The `AgentHook` method of each kind. */
export type HookMethod = Definition['method'];

/** Every in-process kind, in catalogue order. */
export const STEP_EVENT_KINDS: readonly HookEventKind[] = EVENTS.map((event) => event.kind);

/** The method of `AgentHook` that handles each event kind. */
export const HOOK_METHOD = Object.fromEntries(
  EVENTS.map((event) => [event.kind, event.method]),
) as { readonly [Kind in HookEventKind]: EventMap[Kind]['method'] };

/** The definition of each kind (`EVENT_DEFINITIONS.toolCall`). */
export const EVENT_DEFINITIONS = Object.fromEntries(EVENTS.map((event) => [event.kind, event])) as {
  readonly [Kind in HookEventKind]: DefinitionOf<Kind>;
};

// --- the external catalogue ------------------------------------------------------------------

type ExternalDefinition = Extract<Definition, { readonly external: object }>;
type External = ExternalDefinition['external'];

/** A canonical external event name (Claude Code lineage): `PreToolUse`, `Stop`, … */
export type HookEventName = External['name'];
/** A Gemini CLI alias accepted in any settings file: `BeforeTool`, `AfterAgent`, … */
export type HookEventAlias = External['aliases'][number];
/** A name a settings file may use: canonical or alias. */
export type RegisteredEventName = HookEventName | HookEventAlias;

type ExternalNamed<Name extends HookEventName> = Extract<External, { readonly name: Name }>;
type DefinitionNamed<Name extends HookEventName> = Extract<
  ExternalDefinition,
  { readonly external: { readonly name: Name } }
>;

type CanonicalOfAlias<Alias, Side = External> = Side extends {
  readonly name: infer Name;
  readonly aliases: readonly (infer Aliases)[];
}
  ? Alias extends Aliases
    ? Name
    : never
  : never;

/** The canonical event of a registered name (canonical names map to themselves). */
export type CanonicalEventOf<Name extends RegisteredEventName> = Name extends HookEventName
  ? Name
  : CanonicalOfAlias<Name>;

/** Each external event's own payload fields (after the base fields). */
export type HookInputFieldsMap = {
  [Name in HookEventName]: NonNullable<ExternalNamed<Name>['types']>['input'];
};

/** The decoded `hookSpecificOutput` of each external event (`hookEventName` aside). */
export type HookSpecificOutputMap = {
  [Name in HookEventName]: NonNullable<ExternalNamed<Name>['types']>['specific'];
};

const externalDefinitions: readonly ExternalDefinition[] = EVENTS.filter(
  (event): event is ExternalDefinition => event.external !== undefined,
);

/** The external event catalogue: canonical names, in catalogue order. */
export const HOOK_EVENT_NAMES = externalDefinitions.map(
  (event) => event.external.name,
) as unknown as readonly [HookEventName, ...HookEventName[]];

/** Alias → canonical name. */
export const HOOK_EVENT_ALIASES = Object.fromEntries(
  externalDefinitions.flatMap((event) =>
    event.external.aliases.map((alias) => [alias, event.external.name]),
  ),
) as { readonly [Alias in HookEventAlias]: CanonicalEventOf<Alias> };

const canonicalNames: ReadonlyMap<string, HookEventName> = new Map([
  ...HOOK_EVENT_NAMES.map((name) => [name, name] as const),
  ...(Object.entries(HOOK_EVENT_ALIASES) as [string, HookEventName][]),
]);

/** The canonical name for a canonical name or alias; `undefined` for anything else. */
export function canonicalEventName(name: string): HookEventName | undefined {
  return canonicalNames.get(name);
}

/** The names an event may be registered under: canonical first, then its aliases. */
export function registeredNames(event: HookEventName): [string, ...string[]] {
  return [event, ...externalSide(event).aliases];
}

const byName = new Map<string, ExternalDefinition>(
  externalDefinitions.map((event) => [event.external.name, event]),
);

/** The definition of an external event (in-process kind, composition and external side). */
export function externalDefinition<Name extends HookEventName>(name: Name): DefinitionNamed<Name> {
  const definition = byName.get(name);
  if (definition === undefined) throw new RangeError(`unknown hook event ${JSON.stringify(name)}`);
  return definition as DefinitionNamed<Name>;
}

/** The external side of an event. */
export function externalSide<Name extends HookEventName>(name: Name): ExternalNamed<Name> {
  return externalDefinition(name).external as ExternalNamed<Name>;
}

function tableOf<Value>(
  value: (event: ExternalDefinition) => Value,
): Readonly<Record<HookEventName, Value>> {
  return Object.fromEntries(
    externalDefinitions.map((event) => [event.external.name, value(event)]),
  ) as Readonly<Record<HookEventName, Value>>;
}

function setOf(test: (event: ExternalDefinition) => boolean): ReadonlySet<HookEventName> {
  return new Set(externalDefinitions.filter(test).map((event) => event.external.name));
}

/** What a matcher of each event is matched against (`undefined`: the event takes no matcher). */
export const MATCHER_TARGET: Readonly<Record<HookEventName, string | undefined>> = tableOf(
  (event) => event.external.matcher,
);

/** The in-process event kind each external event is adapted onto. */
export const EVENT_KIND: Readonly<Record<HookEventName, HookEventKind>> = tableOf(
  (event) => event.kind,
);

/** The events on which a denial means something (the rest are advisory or observe-only). */
export const DENY_EVENTS = setOf((event) => event.external.can.deny);

/**
 * The events on which `continue: false` stops the run: those whose in-process action has a
 * `stop` (one event model: a command hook steers exactly as an in-process hook can). The
 * observe-only events ignore it, with a warning.
 */
export const STOP_EVENTS = setOf((event) => event.external.can.stop);

/** The events whose plain-text stdout is context for the model (a message everywhere else). */
export const TEXT_IS_CONTEXT = setOf((event) => event.external.can.textIsContext);

/** Events a hook can only observe: `failClosed` on them is a configuration error. */
export const OBSERVE_ONLY_EVENTS = setOf((event) => event.external.can.failClosed === undefined);
