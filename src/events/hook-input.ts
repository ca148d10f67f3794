/**
 * The payload a command hook reads on stdin: the base fields every event carries, then the
 * event's own fields (stated by each event module, `external.input`). Built by `buildHookInput`
 * (no validation on that path: it runs for every fired event); `hookInputSchemas` state the
 * contract and generate `schemas/hook-input.*.json`.
 */
import { z } from 'zod';
import {
  EVENTS,
  HOOK_EVENT_NAMES,
  registeredNames,
  type HookEventName,
  type HookInputFieldsMap,
  type RegisteredEventName,
} from './catalogue.ts';
import { lazyRecord } from './lazy-record.ts';

/** The fields every payload starts with. */
export interface HookInputBase {
  readonly session_id: string;
  /** Path of the session transcript (JSON lines); empty when the session keeps none. */
  readonly transcript_path: string;
  readonly cwd: string;
  /**
   * Set when the event fired inside a subagent (a child loop of the `agent` tool): its id and
   * agent type. Absent in the main loop. On `SubagentStart`/`SubagentStop` the event's own
   * fields (the subagent concerned) take their place.
   */
  readonly agent_id?: string;
  readonly agent_type?: string;
  /** The name the hook was registered under (canonical or alias). */
  readonly hook_event_name: RegisteredEventName;
  /** ISO 8601, UTC. */
  readonly timestamp: string;
}

/** The stdin payload of event `E`. */
export type HookInput<E extends HookEventName = HookEventName> = HookInputBase &
  HookInputFieldsMap[E];

/** Any event's payload, discriminated by the canonical event it was built for. */
export type AnyHookInput = { [E in HookEventName]: HookInput<E> }[HookEventName];

const fieldShapes = new Map<string, () => z.core.$ZodShape>(
  EVENTS.flatMap((event) =>
    event.external === undefined ? [] : [[event.external.name, event.external.input] as const],
  ),
);

function inputSchema(event: HookEventName) {
  return z
    .strictObject({
      session_id: z.string(),
      transcript_path: z.string(),
      cwd: z.string(),
      agent_id: z.string().optional(),
      agent_type: z.string().optional(),
      hook_event_name: z.enum(registeredNames(event)),
      timestamp: z.iso.datetime({ offset: true }),
      ...fieldShapes.get(event)?.(),
    })
    .meta({ title: `hookwire ${event} hook input` });
}

/** The stdin payload schema of each event, keyed by canonical name (each built on first read). */
export const hookInputSchemas: { readonly [E in HookEventName]: ReturnType<typeof inputSchema> } =
  lazyRecord(HOOK_EVENT_NAMES, inputSchema);

/** The base fields a caller supplies; `timestamp` defaults to now. */
export interface HookInputContext {
  readonly session_id: string;
  readonly transcript_path: string;
  readonly cwd: string;
  /** The subagent the event fired in, when it did (see `HookInputBase.agent_id`). */
  readonly agent_id?: string;
  readonly agent_type?: string;
  readonly timestamp?: string;
}

/**
 * Builds the stdin payload of `event`: the base fields in their documented order, then the
 * event's fields (taken by reference, not copied). `registeredName` is what the hook sees in
 * `hook_event_name` (the name it was registered under); it defaults to the canonical name.
 */
export function buildHookInput<E extends HookEventName>(
  event: E,
  context: HookInputContext,
  fields: HookInputFieldsMap[E],
  registeredName: RegisteredEventName = event,
): HookInput<E> {
  return {
    session_id: context.session_id,
    transcript_path: context.transcript_path,
    cwd: context.cwd,
    ...(context.agent_id === undefined
      ? {}
      : { agent_id: context.agent_id, agent_type: context.agent_type ?? '' }),
    hook_event_name: registeredName,
    timestamp: context.timestamp ?? new Date().toISOString(),
    ...fields,
  };
}
