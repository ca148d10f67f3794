/**
 * The payload a command hook reads on stdin: the base fields every event carries, then the
 * event's own fields. Built by `buildHookInput` (no validation on that path: it runs for every
 * fired event); `hookInputSchemas` state the contract and generate `schemas/hook-input.*.json`.
 */
import { z } from 'zod';
import type { ToolDeclaration } from '../content/blocks.ts';
import {
  HOOK_EVENT_ALIASES,
  HOOK_EVENT_NAMES,
  type HookEventName,
  type RegisteredEventName,
} from './event-names.ts';
import {
  hookLLMRequestInputSchema,
  hookToolSelectionRequestInputSchema,
  type HookLLMRequest,
} from './llm-request.ts';
import { hookLLMResponseInputSchema, type HookLLMResponse } from './llm-response.ts';

export const SESSION_START_SOURCES = ['startup', 'resume', 'clear', 'compact'] as const;
export const SESSION_END_REASONS = [
  'exit',
  'clear',
  'logout',
  'prompt_input_exit',
  'other',
] as const;
export const PRE_COMPACT_TRIGGERS = ['manual', 'auto'] as const;

/** The fields every payload starts with. */
export interface HookInputBase {
  readonly session_id: string;
  /** Path of the session transcript (JSON lines); empty when the session keeps none. */
  readonly transcript_path: string;
  readonly cwd: string;
  /** The name the hook was registered under (canonical or alias). */
  readonly hook_event_name: RegisteredEventName;
  /** ISO 8601, UTC. */
  readonly timestamp: string;
}

/** Gemini CLI's MCP server identity on tool events of MCP tools. */
export type McpContext = Readonly<Record<string, unknown>>;

interface ToolFields {
  readonly tool_name: string;
  readonly tool_input: Readonly<Record<string, unknown>>;
  readonly tool_call_id: string;
  readonly mcp_context?: McpContext;
}

/** Each event's own fields. */
export interface HookInputFieldsMap {
  SessionStart: { readonly source: (typeof SESSION_START_SOURCES)[number] };
  UserPromptSubmit: { readonly prompt: string };
  BeforeModel: { readonly llm_request: HookLLMRequest };
  BeforeToolSelection: {
    readonly llm_request: HookLLMRequest & { readonly tools: readonly ToolDeclaration[] };
  };
  AfterModel: { readonly llm_request: HookLLMRequest; readonly llm_response: HookLLMResponse };
  PreToolUse: ToolFields;
  PostToolUse: ToolFields & { readonly tool_response: unknown };
  PostToolUseFailure: ToolFields & { readonly error: string; readonly tool_response?: unknown };
  Stop: {
    readonly stop_hook_active: boolean;
    readonly prompt: string;
    readonly prompt_response: string;
  };
  StopFailure: {
    readonly error: string;
    readonly error_details?: Readonly<Record<string, unknown>>;
    readonly prompt?: string;
  };
  Interrupt: { readonly prompt?: string };
  PreCompact: {
    readonly trigger: (typeof PRE_COMPACT_TRIGGERS)[number];
    readonly custom_instructions?: string;
  };
  Notification: {
    readonly notification_type: string;
    readonly message: string;
    readonly details?: Readonly<Record<string, unknown>>;
  };
  SessionEnd: { readonly reason: (typeof SESSION_END_REASONS)[number] };
}

/** The stdin payload of event `E`. */
export type HookInput<E extends HookEventName = HookEventName> = HookInputBase &
  HookInputFieldsMap[E];

/** Any event's payload, discriminated by the canonical event it was built for. */
export type AnyHookInput = { [E in HookEventName]: HookInput<E> }[HookEventName];

const record = z.record(z.string(), z.unknown());
const toolShape = {
  tool_name: z.string(),
  tool_input: record,
  tool_call_id: z.string(),
  mcp_context: record.optional(),
};

const fieldShapes = {
  SessionStart: { source: z.enum(SESSION_START_SOURCES) },
  UserPromptSubmit: { prompt: z.string() },
  BeforeModel: { llm_request: hookLLMRequestInputSchema },
  BeforeToolSelection: { llm_request: hookToolSelectionRequestInputSchema },
  AfterModel: { llm_request: hookLLMRequestInputSchema, llm_response: hookLLMResponseInputSchema },
  PreToolUse: toolShape,
  PostToolUse: { ...toolShape, tool_response: z.unknown() },
  PostToolUseFailure: { ...toolShape, error: z.string(), tool_response: z.unknown().optional() },
  Stop: { stop_hook_active: z.boolean(), prompt: z.string(), prompt_response: z.string() },
  StopFailure: {
    error: z.string(),
    error_details: record.optional(),
    prompt: z.string().optional(),
  },
  Interrupt: { prompt: z.string().optional() },
  PreCompact: { trigger: z.enum(PRE_COMPACT_TRIGGERS), custom_instructions: z.string().optional() },
  Notification: { notification_type: z.string(), message: z.string(), details: record.optional() },
  SessionEnd: { reason: z.enum(SESSION_END_REASONS) },
} as const satisfies Record<HookEventName, z.core.$ZodShape>;

function registeredNames(event: HookEventName): [string, ...string[]] {
  const names: [string, ...string[]] = [event];
  for (const [alias, canonical] of Object.entries(HOOK_EVENT_ALIASES))
    if (canonical === event) names.push(alias);
  return names;
}

function inputSchema(event: HookEventName) {
  return z
    .strictObject({
      session_id: z.string(),
      transcript_path: z.string(),
      cwd: z.string(),
      hook_event_name: z.enum(registeredNames(event)),
      timestamp: z.iso.datetime({ offset: true }),
      ...fieldShapes[event],
    })
    .meta({ title: `hookwire ${event} hook input` });
}

/** The stdin payload schema of each event, keyed by canonical name. */
export const hookInputSchemas = Object.fromEntries(
  HOOK_EVENT_NAMES.map((event) => [event, inputSchema(event)]),
) as { readonly [E in HookEventName]: ReturnType<typeof inputSchema> };

/** The base fields a caller supplies; `timestamp` defaults to now. */
export interface HookInputContext {
  readonly session_id: string;
  readonly transcript_path: string;
  readonly cwd: string;
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
    hook_event_name: registeredName,
    timestamp: context.timestamp ?? new Date().toISOString(),
    ...fields,
  };
}
