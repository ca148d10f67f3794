/**
 * What a command hook prints on stdout (exit 0), per event: the common fields of Claude Code and
 * Gemini CLI and each event's `hookSpecificOutput`. Every object is strict: a field hookwire does
 * not read, a field of another event, or a wrongly typed value is an error with its JSON path
 * (surfaced upstream as a warning), never silently ignored.
 */
import { z } from 'zod';
import type { ToolChoice } from '../content/model.ts';
import {
  HOOK_EVENT_ALIASES,
  HOOK_EVENT_NAMES,
  canonicalEventName,
  type HookEventAlias,
  type HookEventName,
  type RegisteredEventName,
} from './event-names.ts';
import { hookLLMRequestOverrideSchema, type HookLLMRequestOverride } from './llm-request.ts';
import { hookLLMResponseSchema, type HookLLMResponseOverride } from './llm-response.ts';
import { toolChoiceSchema } from './tool-choice.ts';
import {
  failure,
  jsonPath,
  toWireIssues,
  type WireDecodeResult,
  type WireIssue,
} from './wire-decode-error.ts';
import { isJsonObject } from './json-object.ts';

/** The `decision` values hooks print: Gemini `allow`/`deny`, Claude Code `approve`/`block`. */
export const RAW_HOOK_DECISIONS = ['allow', 'deny', 'block', 'approve'] as const;
export type RawHookDecision = (typeof RAW_HOOK_DECISIONS)[number];
/** A decision after normalisation: `approve` reads as `allow`, `block` as `deny`. */
export type HookDecision = 'allow' | 'deny';

/** PreToolUse `permissionDecision` (Claude Code). */
export const PERMISSION_DECISIONS = ['allow', 'deny', 'ask'] as const;
export type PermissionDecision = (typeof PERMISSION_DECISIONS)[number];

function decisionMessage(value: unknown): string {
  if (value === 'ask')
    return '"ask" is not a top-level decision; a PreToolUse hook asks with `hookSpecificOutput.permissionDecision: "ask"`';
  return `${JSON.stringify(value)} is not a decision; expected one of ${RAW_HOOK_DECISIONS.join(', ')}`;
}

const commonShape = {
  continue: z.boolean().optional().describe('false stops the run; `stopReason` says why.'),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional().describe('Shown to the user.'),
  decision: z
    .enum(RAW_HOOK_DECISIONS, { error: (issue) => decisionMessage(issue.input) })
    .optional()
    .describe('approve reads as allow, block as deny.'),
  reason: z.string().optional(),
};

const additionalContext = z.string().optional().describe('Added to the context the model sees.');
const toolArguments = z.record(z.string(), z.unknown());

/** Each event's `hookSpecificOutput` fields (besides `hookEventName`). */
const specificShapes = {
  SessionStart: { additionalContext },
  UserPromptSubmit: { additionalContext },
  BeforeModel: {
    llm_request: hookLLMRequestOverrideSchema
      .optional()
      .describe(
        'Merged over the outgoing request: contents/tools replace, settings shallow-merge.',
      ),
    llm_response: hookLLMResponseSchema
      .optional()
      .describe('A synthetic response: the model is not called.'),
  },
  BeforeToolSelection: {
    toolChoice: toolChoiceSchema
      .optional()
      .describe('none > required > auto; allowlists intersect.'),
  },
  AfterModel: {
    llm_response: hookLLMResponseSchema.optional().describe('Replaces the response (or chunk).'),
  },
  PreToolUse: {
    permissionDecision: z.enum(PERMISSION_DECISIONS).optional(),
    permissionDecisionReason: z.string().optional(),
    tool_input: toolArguments.optional().describe('Merged over the arguments (Gemini CLI).'),
    updatedInput: toolArguments.optional().describe('Replaces the arguments (Claude Code).'),
  },
  PostToolUse: {
    additionalContext,
    updatedToolOutput: z
      .unknown()
      .optional()
      .describe('Replaces the result the model sees; the raw result is kept.'),
    tool_response: z
      .unknown()
      .optional()
      .describe('Same as updatedToolOutput (Gemini-style name).'),
    updatedMCPToolOutput: z
      .unknown()
      .optional()
      .describe('Same as updatedToolOutput (Claude Code name).'),
  },
  PostToolUseFailure: { additionalContext },
  Stop: {
    clearContext: z
      .boolean()
      .optional()
      .describe('Gemini CLI AfterAgent: clear the model history.'),
  },
  StopFailure: {},
  Interrupt: {},
  PreCompact: { additionalContext },
  Notification: {},
  SessionEnd: {},
} as const satisfies Record<HookEventName, z.core.$ZodShape>;

const TOOL_OUTPUT_NAMES = ['updatedToolOutput', 'tool_response', 'updatedMCPToolOutput'] as const;

function namesOf(event: HookEventName): [string, ...string[]] {
  const names: [string, ...string[]] = [event];
  for (const [alias, canonical] of Object.entries(HOOK_EVENT_ALIASES))
    if (canonical === event) names.push(alias);
  return names;
}

function specificSchema(event: HookEventName) {
  const names = namesOf(event);
  return z.strictObject({
    hookEventName: z
      .enum(names, {
        error: (issue) =>
          `hookEventName ${JSON.stringify(issue.input)} does not match the event this hook ran for (${names.join(' or ')})`,
      })
      .optional(),
    ...specificShapes[event],
  });
}

function outputSchema(event: HookEventName) {
  return z
    .strictObject({ ...commonShape, hookSpecificOutput: specificSchema(event).optional() })
    .meta({ title: `hookwire ${event} hook output` });
}

/** The output schema of each event, keyed by canonical name. */
export const hookOutputSchemas = Object.fromEntries(
  HOOK_EVENT_NAMES.map((event) => [event, outputSchema(event)]),
) as { readonly [E in HookEventName]: ReturnType<typeof outputSchema> };

/** Any event's output (for documentation and editors; decode with the event's own schema). */
export const hookOutputSchema = z
  .strictObject({
    ...commonShape,
    hookSpecificOutput: z.union(HOOK_EVENT_NAMES.map((event) => specificSchema(event))).optional(),
  })
  .meta({ title: 'hookwire hook output (any event)' });

// Which events accept each hookSpecificOutput field, to explain a field written for the wrong event.
const eventsByField = new Map<string, HookEventName[]>();
for (const event of HOOK_EVENT_NAMES)
  for (const field of Object.keys(specificShapes[event])) {
    const events = eventsByField.get(field) ?? [];
    events.push(event);
    eventsByField.set(field, events);
  }

/** The decoded `hookSpecificOutput` of each event (`hookEventName` as the hook wrote it). */
export interface HookSpecificOutputMap {
  SessionStart: { readonly additionalContext?: string };
  UserPromptSubmit: { readonly additionalContext?: string };
  BeforeModel: {
    readonly llm_request?: HookLLMRequestOverride;
    readonly llm_response?: HookLLMResponseOverride;
  };
  BeforeToolSelection: { readonly toolChoice?: ToolChoice };
  AfterModel: { readonly llm_response?: HookLLMResponseOverride };
  PreToolUse: {
    readonly permissionDecision?: PermissionDecision;
    readonly permissionDecisionReason?: string;
    /** Merged over the tool's arguments (Gemini CLI). */
    readonly tool_input?: Readonly<Record<string, unknown>>;
    /** Replaces the tool's arguments (Claude Code). */
    readonly updatedInput?: Readonly<Record<string, unknown>>;
  };
  PostToolUse: {
    readonly additionalContext?: string;
    /**
     * Replaces the result the model sees; written as `updatedToolOutput`, `tool_response` or
     * Claude Code's `updatedMCPToolOutput`. Present (even as `null`) only when the hook set it.
     */
    readonly updatedToolOutput?: unknown;
  };
  PostToolUseFailure: { readonly additionalContext?: string };
  Stop: { readonly clearContext?: boolean };
  StopFailure: object;
  Interrupt: object;
  PreCompact: { readonly additionalContext?: string };
  Notification: object;
  SessionEnd: object;
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

/** The canonical event of a registered name (canonical names map to themselves). */
export type CanonicalEventOf<N extends RegisteredEventName> = N extends HookEventAlias
  ? (typeof HOOK_EVENT_ALIASES)[N]
  : N;

/**
 * Decodes what a hook printed for `event` (canonical name or alias). Unknown fields, fields of
 * another event and wrongly typed values are errors with their JSON path. The decoded form
 * normalises `decision` (keeping `rawDecision`) and the PostToolUse output aliases; everything
 * else is the hook's own values, by reference.
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
  const parsed = hookOutputSchemas[canonical].safeParse(value);
  if (!parsed.success)
    return failure(
      subject,
      toWireIssues(parsed.error, value, [], (field, path) =>
        misplacedFieldHint(canonical, field, path),
      ),
    );
  const issues: WireIssue[] = [];
  const specific = value['hookSpecificOutput'] as Record<string, unknown> | undefined;
  let decodedSpecific = specific;
  if (specific !== undefined) {
    const written = TOOL_OUTPUT_NAMES.filter((name) => name in specific);
    if (written.length > 1)
      issues.push({
        path: jsonPath(['hookSpecificOutput']),
        message: `give the replacement output once; found ${written.map((name) => `\`${name}\``).join(', ')}`,
      });
    if ('tool_input' in specific && 'updatedInput' in specific)
      issues.push({
        path: jsonPath(['hookSpecificOutput']),
        message:
          'give either `tool_input` (merged over the arguments) or `updatedInput` (replaces them), not both',
      });
    const alias = written[0];
    if (alias !== undefined && alias !== 'updatedToolOutput') {
      const { [alias]: output, ...rest } = specific;
      decodedSpecific = { ...rest, updatedToolOutput: output };
    }
  }
  if (issues.length > 0) return failure(subject, issues);
  const rawDecision = value['decision'] as RawHookDecision | undefined;
  const decoded: Record<string, unknown> = { ...value };
  if (rawDecision !== undefined) {
    decoded['decision'] = normalizeDecision(rawDecision);
    decoded['rawDecision'] = rawDecision;
  }
  if (decodedSpecific !== specific) decoded['hookSpecificOutput'] = decodedSpecific;
  return { ok: true, value: decoded };
}

/** `approve` → `allow`, `block` → `deny`; `allow`/`deny` unchanged. */
export function normalizeDecision(decision: RawHookDecision): HookDecision {
  return decision === 'approve' || decision === 'allow' ? 'allow' : 'deny';
}

function misplacedFieldHint(
  event: HookEventName,
  field: string,
  path: readonly PropertyKey[],
): string | undefined {
  const events = eventsByField.get(field);
  const inSpecific = path.length === 1 && path[0] === 'hookSpecificOutput';
  if (inSpecific) {
    if (events === undefined) return `${event} reads no such hookSpecificOutput field`;
    return `not an output of ${event} (it belongs to ${events.join(', ')})`;
  }
  if (path.length === 0 && (events !== undefined || field === 'hookEventName'))
    return `put it inside \`hookSpecificOutput\``;
  return undefined;
}
