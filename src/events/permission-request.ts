/**
 * `permissionRequest` (external `PermissionRequest`): a tool call the permission rules and mode
 * ask about (after PreToolUse, before the tool runs). A hook allows it (optionally rewriting its
 * arguments with `updatedInput`), denies it with a message, or has no opinion; when no hook
 * decides, a headless run denies the call and fires a `permission_prompt` Notification.
 */
import { z } from 'zod';
import { NEXT, type EventDefinition, type ExternalSide } from './define-event.ts';
import {
  CONTINUE,
  asArguments,
  jsonRecord,
  mcpContextField,
  toolPayloadShape,
  type McpContext,
} from './shared.ts';

/** A call that needs asking (external `PermissionRequest`). `args` includes earlier rewrites. */
export interface PermissionRequestEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  /** Effective arguments: after PreToolUse, and after earlier hooks' `updatedInput`. */
  readonly args: unknown;
  /** The source text of the rule that asks (`write_file(src/**)`); absent when the mode asks. */
  readonly rule?: string;
  /** Why the call is asked about (the rule or the mode), for people. */
  readonly reason: string;
  /** The run's permission mode (`default`, `acceptEdits`, `plan`, `bypassPermissions`). */
  readonly mode: string;
  /** MCP tools only: the server and the tool on it (payload `mcp_context`). */
  readonly mcpContext?: McpContext;
}

/**
 * The answer to a permission request. `allow` runs the call, with `updatedInput` as its
 * arguments when given (re-validated against the tool's schema and decided again against the
 * deny rules before it runs); `deny` refuses it, and `message` is what the model sees;
 * `continue` is no decision.
 *
 * Composition (registration order): the first `deny` short-circuits and wins over every allow
 * (earlier or later); allows accumulate and rewrites chain like PreToolUse rewrites (a later hook
 * sees the earlier `updatedInput` as `event.args`, and the later rewrite wins). The stack answers
 * `allow` (with the last `updatedInput`, if any) when some member allowed and none denied, and
 * `continue` when no member decided.
 */
export type PermissionRequestAction =
  | { readonly kind: 'continue' }
  | { readonly kind: 'allow'; readonly updatedInput?: unknown }
  | { readonly kind: 'deny'; readonly message: string };
export const PermissionRequestAction = {
  continue: (): PermissionRequestAction => CONTINUE,
  /** `updatedInput`: the arguments to run with instead (omit to run the call as asked). */
  allow: (...updatedInput: [updatedInput?: unknown]): PermissionRequestAction =>
    updatedInput.length === 0 || updatedInput[0] === undefined
      ? { kind: 'allow' }
      : { kind: 'allow', updatedInput: updatedInput[0] },
  deny: (message: string): PermissionRequestAction => ({ kind: 'deny', message }),
} as const;

/** The payload fields of `PermissionRequest`. */
export interface PermissionRequestInput {
  readonly tool_name: string;
  readonly tool_input: Readonly<Record<string, unknown>>;
  readonly tool_call_id: string;
  readonly mcp_context?: McpContext;
  readonly permission_mode: string;
  /** The source of the rule that asks; absent when the mode asks. */
  readonly permission_rule?: string;
  /** Why the call is asked about. */
  readonly permission_reason: string;
}

/** Claude Code's `hookSpecificOutput.decision` of `PermissionRequest`. */
export interface PermissionRequestDecision {
  readonly behavior: 'allow' | 'deny';
  /** `allow`: replaces the tool's arguments. */
  readonly updatedInput?: Readonly<Record<string, unknown>>;
  /** `deny`: the reason the model sees. */
  readonly message?: string;
  /** Claude Code's permission updates: accepted and ignored (hookwire persists no rules). */
  readonly updatedPermissions?: readonly unknown[];
  /** Claude Code's `interrupt` on deny: accepted and ignored. */
  readonly interrupt?: boolean;
}

/** The `hookSpecificOutput` of `PermissionRequest`. */
export interface PermissionRequestOutput {
  readonly decision?: PermissionRequestDecision;
}

interface PermissionRequestState {
  allowed: boolean;
  rewritten: boolean;
  args: unknown;
  event: PermissionRequestEvent | undefined;
}

type External = ExternalSide<
  'PermissionRequest',
  PermissionRequestEvent,
  PermissionRequestAction,
  PermissionRequestInput,
  PermissionRequestOutput
>;

/**
 * Registration order; the first deny short-circuits and wins over any allow; among allows the
 * later `updatedInput` wins and later members see it as `event.args` (see the action's doc).
 */
export const permissionRequest: EventDefinition<
  'permissionRequest',
  'onPermissionRequest',
  PermissionRequestEvent,
  PermissionRequestAction,
  External
> = {
  kind: 'permissionRequest',
  method: 'onPermissionRequest',
  actionKinds: ['continue', 'allow', 'deny'],
  compose: {
    proceed: CONTINUE,
    start: (event: PermissionRequestEvent): PermissionRequestState => ({
      allowed: false,
      rewritten: false,
      args: event.args,
      event: undefined,
    }),
    accept(state: PermissionRequestState, action) {
      if (action.kind === 'deny') return action;
      if (action.kind === 'allow') {
        state.allowed = true;
        if (action.updatedInput !== undefined) {
          state.args = action.updatedInput;
          state.rewritten = true;
          state.event = undefined;
        }
      }
      return NEXT;
    },
    eventFor(state: PermissionRequestState, event) {
      if (!state.rewritten) return event;
      return (state.event ??= { ...event, args: state.args });
    },
    finish: (state: PermissionRequestState) =>
      !state.allowed
        ? PermissionRequestAction.continue()
        : state.rewritten
          ? PermissionRequestAction.allow(state.args)
          : PermissionRequestAction.allow(),
  },
  external: {
    name: 'PermissionRequest',
    aliases: [],
    matcher: 'tool_name',
    can: { deny: true, stop: false, textIsContext: false, failClosed: 'deny' },
    input: () => ({
      tool_name: toolPayloadShape().tool_name,
      tool_input: toolPayloadShape().tool_input,
      tool_call_id: toolPayloadShape().tool_call_id,
      mcp_context: toolPayloadShape().mcp_context,
      permission_mode: z.string(),
      permission_rule: z.string().optional().describe('The rule that asks; absent: the mode asks.'),
      permission_reason: z.string(),
    }),
    output: () => ({
      decision: z
        .object({
          behavior: z.enum(['allow', 'deny']),
          updatedInput: jsonRecord()
            .optional()
            .describe('allow: replaces the arguments (re-validated and re-checked).'),
          message: z.string().optional().describe('deny: the reason the model sees.'),
          updatedPermissions: z.array(z.unknown()).optional().describe('Accepted and ignored.'),
          interrupt: z.boolean().optional().describe('Accepted and ignored.'),
        })
        .optional(),
    }),
    toPayload: (event) => ({
      tool_name: event.toolName,
      tool_input: asArguments(event.args),
      tool_call_id: event.toolCallId,
      ...mcpContextField(event),
      permission_mode: event.mode,
      ...(event.rule === undefined ? {} : { permission_rule: event.rule }),
      permission_reason: event.reason,
    }),
    fromPayload: (payload) => ({
      toolName: payload.tool_name,
      toolCallId: payload.tool_call_id,
      args: payload.tool_input,
      mode: payload.permission_mode,
      reason: payload.permission_reason,
      ...(payload.mcp_context === undefined ? {} : { mcpContext: payload.mcp_context }),
      ...(payload.permission_rule === undefined ? {} : { rule: payload.permission_rule }),
    }),
    // Exit 2, `decision.behavior: "deny"`, a top-level deny and a failClosed failure all deny.
    toAction(outcome, _event, reasons) {
      if (outcome.denied) return PermissionRequestAction.deny(reasons.deny());
      if (outcome.allowed === true)
        return 'args' in outcome
          ? PermissionRequestAction.allow(outcome.args)
          : PermissionRequestAction.allow();
      return PermissionRequestAction.continue();
    },
    describeAction(action) {
      if (action.kind === 'allow')
        return {
          decision: {
            behavior: 'allow',
            ...(action.updatedInput === undefined ? {} : { updatedInput: action.updatedInput }),
          },
        };
      if (action.kind === 'deny')
        return { decision: { behavior: 'deny', message: action.message } };
      return {};
    },
    chainPayload(payload, specific) {
      const decision = (specific as PermissionRequestOutput).decision;
      if (decision?.behavior !== 'allow' || decision.updatedInput === undefined) return payload;
      return { ...payload, tool_input: decision.updatedInput };
    },
  },
};
