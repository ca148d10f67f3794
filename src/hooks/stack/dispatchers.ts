/**
 * What the stack's driver needs per event, derived once from the catalogue into records of one
 * shape (so the driver's property loads stay monomorphic): the kind, method and catalogue index,
 * the member call, the "no opinion" answer, the valid action kinds and the composition.
 */
import {
  EVENTS,
  type Composition,
  type HookContext,
  type HookEventKind,
  type HookMethod,
} from '../../events/index.ts';
import type { AgentHook } from '../agent-hook.ts';

export interface Dispatcher {
  readonly kind: HookEventKind;
  readonly method: HookMethod;
  /** Position in the catalogue: the index of the event's member list. */
  readonly index: number;
  readonly invoke: (hook: AgentHook, context: HookContext, event: unknown) => unknown;
  readonly proceed: unknown;
  readonly allowed: ReadonlySet<unknown>;
  readonly synchronous: boolean;
  readonly compose: Composition<unknown, unknown, unknown>;
  /** The event's name in hook-run records: its external name, else its kind. */
  readonly label: string;
  /**
   * Whether an in-process member's call is recorded as a hook run (on a context that records
   * them): every event but the per-token deltas, which would flood the transcript.
   */
  readonly recorded: boolean;
}

/** Fired per token or fragment: in-process observers of these are not recorded run by run. */
const UNRECORDED: ReadonlySet<HookEventKind> = new Set<HookEventKind>([
  'textDelta',
  'reasoningDelta',
  'toolCallDelta',
]);

type Invoke = Dispatcher['invoke'];

/** `hook[method](context, event)`, for the events that bring no call site of their own. */
function invokerOf(method: HookMethod): Invoke {
  return (hook, context, event) =>
    (hook[method] as ((context: HookContext, event: unknown) => unknown) | undefined)?.(
      context,
      event,
    );
}

/** One dispatcher per event, in catalogue order. */
export const DISPATCHERS: readonly Dispatcher[] = EVENTS.map((definition, index) => ({
  kind: definition.kind,
  method: definition.method,
  index,
  invoke: invokerOf(definition.method),
  proceed: definition.compose.proceed,
  allowed: new Set<unknown>(definition.actionKinds),
  synchronous: 'synchronous' in definition && definition.synchronous,
  compose: definition.compose,
  label: definition.external?.name ?? definition.kind,
  recorded: !UNRECORDED.has(definition.kind),
}));

const KIND_INDEX = Object.fromEntries(
  DISPATCHERS.map((dispatcher) => [dispatcher.kind, dispatcher.index]),
) as Readonly<Record<HookEventKind, number>>;

/** Per event kind, the members of a stack interested in it. */
export type MemberLists = Readonly<Record<HookEventKind, readonly AgentHook[]>>;

/**
 * The per-kind member lists, keyed by kind. Built with `Object.fromEntries`, which (unlike keyed
 * stores in a loop) leaves an object of this many properties in fast mode: `observes` and the
 * fast paths read it on every stream delta.
 */
export function memberLists(select: (dispatcher: Dispatcher) => readonly AgentHook[]): MemberLists {
  return Object.fromEntries(
    DISPATCHERS.map((dispatcher) => [dispatcher.kind, select(dispatcher)]),
  ) as MemberLists;
}

/** The dispatcher of one kind. */
export function dispatcherOf(kind: HookEventKind): Dispatcher {
  return DISPATCHERS[KIND_INDEX[kind]] as Dispatcher;
}
