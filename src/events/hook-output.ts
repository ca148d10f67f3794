/**
 * What a command hook prints on stdout (exit 0), per event: the common fields of Claude Code and
 * Gemini CLI (`wire/hook-decision.ts`) and each event's `hookSpecificOutput` (stated by each
 * event module, `external.output`). Every object is strict: a field hookwire does not read, a
 * field of another event, or a wrongly typed value is an error with its JSON path (surfaced
 * upstream as a warning), never silently ignored.
 */
import { z } from 'zod';
import {
  hookOutputCommonShape,
  normalizeDecision,
  type HookDecision,
  type RawHookDecision,
} from '../wire/hook-decision.ts';
import { isJsonObject } from '../wire/json-object.ts';
import {
  failure,
  jsonPath,
  toWireIssues,
  type WireDecodeResult,
  type WireIssue,
} from '../wire/wire-decode-error.ts';
import {
  HOOK_EVENT_NAMES,
  canonicalEventName,
  externalSide,
  registeredNames,
  type CanonicalEventOf,
  type HookEventName,
  type HookSpecificOutputMap,
  type RegisteredEventName,
} from './catalogue.ts';
import { lazyRecord } from './lazy-record.ts';

/**
 * The zod shape of each event's `hookSpecificOutput` fields (its module's `external.output`),
 * built on first read and shared by every schema that includes it.
 */
export const hookSpecificOutputShapes: { readonly [E in HookEventName]: z.core.$ZodShape } =
  lazyRecord(HOOK_EVENT_NAMES, (event) => externalSide(event).output());

function specificSchema(event: HookEventName) {
  const names = registeredNames(event);
  return z.strictObject({
    hookEventName: z
      .enum(names, {
        error: (issue) =>
          `hookEventName ${JSON.stringify(issue.input)} does not match the event this hook ran for (${names.join(' or ')})`,
      })
      .optional(),
    ...hookSpecificOutputShapes[event],
  });
}

function outputSchema(event: HookEventName) {
  return z
    .strictObject({
      ...hookOutputCommonShape(),
      hookSpecificOutput: specificSchema(event).optional(),
    })
    .meta({ title: `hookwire ${event} hook output` });
}

/** The output schema of each event, keyed by canonical name (each built on first read). */
export const hookOutputSchemas: { readonly [E in HookEventName]: ReturnType<typeof outputSchema> } =
  lazyRecord(HOOK_EVENT_NAMES, outputSchema);

/** Any event's output (for documentation and editors; decode with the event's own schema). */
export function anyHookOutputSchema() {
  return z
    .strictObject({
      ...hookOutputCommonShape(),
      hookSpecificOutput: z
        .union(HOOK_EVENT_NAMES.map((event) => specificSchema(event)))
        .optional(),
    })
    .meta({ title: 'hookwire hook output (any event)' });
}

// Which events accept each hookSpecificOutput field, to explain a field written for the wrong event.
// Built on first use (explaining a misplaced field), not at import: it reads every event's shape.
let eventsByFieldMap: Map<string, HookEventName[]> | undefined;
function eventsByField(): Map<string, HookEventName[]> {
  if (eventsByFieldMap !== undefined) return eventsByFieldMap;
  eventsByFieldMap = new Map();
  for (const event of HOOK_EVENT_NAMES)
    for (const field of Object.keys(hookSpecificOutputShapes[event])) {
      const events = eventsByFieldMap.get(field) ?? [];
      events.push(event);
      eventsByFieldMap.set(field, events);
    }
  return eventsByFieldMap;
}

/** A decoded hook output of event `E`. Nested values (requests, responses, arguments) are the hook's own objects. */
export interface HookOutput<E extends HookEventName = HookEventName> {
  readonly continue?: boolean;
  readonly stopReason?: string;
  readonly suppressOutput?: boolean;
  readonly systemMessage?: string;
  /** Normalised: `approve` → `allow`, `block` → `deny`. */
  readonly decision?: HookDecision;
  /** The decision exactly as the hook wrote it. */
  readonly rawDecision?: RawHookDecision;
  readonly reason?: string;
  readonly hookSpecificOutput?: HookSpecificOutputMap[E] & { readonly hookEventName?: string };
}

/**
 * Decodes what a hook printed for `event` (canonical name or alias). Unknown fields, fields of
 * another event and wrongly typed values are errors with their JSON path. The decoded form
 * normalises `decision` (keeping `rawDecision`) and the event's own field aliases (e.g. the
 * PostToolUse output names); everything else is the hook's own values, by reference.
 */
export function decodeHookOutput<N extends RegisteredEventName>(
  event: N,
  value: unknown,
): WireDecodeResult<HookOutput<CanonicalEventOf<N>>> {
  const canonical = canonicalEventName(event);
  const subject = `${event} hook output`;
  if (canonical === undefined)
    return failure(subject, [{ path: '$', message: `unknown event ${JSON.stringify(event)}` }]);
  if (!isJsonObject(value)) {
    const got = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
    return failure(subject, [{ path: '$', message: `expected a JSON object, got ${got}` }]);
  }
  // No opinion (`{}`), what most hooks answer most of the time: decoded as the schema decodes it,
  // known once per event, without running the schema on every answer (~25 µs each).
  if (isEmptyObject(value) && emptyObjectDecodes(canonical)) return { ok: true, value: {} };
  const parsed = hookOutputSchemas[canonical].safeParse(value);
  if (!parsed.success)
    return failure(
      subject,
      toWireIssues(parsed.error, value, [], (field, path) =>
        misplacedFieldHint(canonical, field, path),
      ),
    );
  const specific = value['hookSpecificOutput'] as Record<string, unknown> | undefined;
  let decodedSpecific: Readonly<Record<string, unknown>> | undefined = specific;
  const normalized =
    specific === undefined ? undefined : externalSide(canonical).normalizeOutput?.(specific);
  if (normalized !== undefined) {
    if (normalized.problems.length > 0)
      return failure(
        subject,
        normalized.problems.map((message): WireIssue => ({
          path: jsonPath(['hookSpecificOutput']),
          message,
        })),
      );
    decodedSpecific = normalized.specific;
  }
  const rawDecision = value['decision'] as RawHookDecision | undefined;
  const decoded: Record<string, unknown> = { ...value };
  if (rawDecision !== undefined) {
    decoded['decision'] = normalizeDecision(rawDecision);
    decoded['rawDecision'] = rawDecision;
  }
  if (decodedSpecific !== specific) decoded['hookSpecificOutput'] = decodedSpecific;
  return { ok: true, value: decoded };
}

/** Whether `value` has no own properties (a JSON object, checked by the caller). */
function isEmptyObject(value: Readonly<Record<string, unknown>>): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

const emptyObjectAccepted = new Map<HookEventName, boolean>();

/** Whether event `canonical`'s output schema accepts `{}` (every event's does; asked once). */
function emptyObjectDecodes(canonical: HookEventName): boolean {
  let accepted = emptyObjectAccepted.get(canonical);
  if (accepted === undefined) {
    accepted = hookOutputSchemas[canonical].safeParse({}).success;
    emptyObjectAccepted.set(canonical, accepted);
  }
  return accepted;
}

function misplacedFieldHint(
  event: HookEventName,
  field: string,
  path: readonly PropertyKey[],
): string | undefined {
  const events = eventsByField().get(field);
  const inSpecific = path.length === 1 && path[0] === 'hookSpecificOutput';
  if (inSpecific) {
    if (events === undefined) return `${event} reads no such hookSpecificOutput field`;
    return `not an output of ${event} (it belongs to ${events.join(', ')})`;
  }
  if (path.length === 0 && (events !== undefined || field === 'hookEventName'))
    return `put it inside \`hookSpecificOutput\``;
  return undefined;
}
