/** `toolFailure` (external `PostToolUseFailure`): a tool call failed (the tool threw). */
import { z } from 'zod';
import type { EventDefinition, ExternalSide } from './define-event.ts';
import {
  additionalContextOutput,
  asArguments,
  CONTINUE,
  ContextAction,
  joinContexts,
  mcpContextField,
  toolPayloadShape,
  type McpContext,
  type ToolPayloadFields,
} from './shared.ts';

/** A tool call failed (external `PostToolUseFailure`). */
export interface ToolFailureEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly args: unknown;
  readonly error: string;
  /** MCP tools only: the server and the tool on it (payload `mcp_context`). */
  readonly mcpContext?: McpContext;
}

/** The payload fields of `PostToolUseFailure`. */
export interface PostToolUseFailureInput extends ToolPayloadFields {
  readonly error: string;
  readonly tool_response?: unknown;
}

/** The `hookSpecificOutput` of `PostToolUseFailure`. */
export interface PostToolUseFailureOutput {
  readonly additionalContext?: string;
}

type External = ExternalSide<
  'PostToolUseFailure',
  ToolFailureEvent,
  ContextAction,
  PostToolUseFailureInput,
  PostToolUseFailureOutput
>;

/** Contexts joined in order; the first stop short-circuits. */
export const toolFailure: EventDefinition<
  'toolFailure',
  'onToolFailure',
  ToolFailureEvent,
  ContextAction,
  External
> = {
  kind: 'toolFailure',
  method: 'onToolFailure',
  actionKinds: ['continue', 'stop'],
  compose: joinContexts(CONTINUE, ContextAction.continue),
  external: {
    name: 'PostToolUseFailure',
    aliases: [],
    matcher: 'tool_name',
    can: { deny: false, stop: true, textIsContext: false, failClosed: 'stop' },
    input: () => ({
      ...toolPayloadShape(),
      error: z.string(),
      tool_response: z.unknown().optional(),
    }),
    output: () => ({ additionalContext: additionalContextOutput() }),
    toPayload: (event) => ({
      tool_name: event.toolName,
      tool_input: asArguments(event.args),
      tool_call_id: event.toolCallId,
      ...mcpContextField(event),
      error: event.error,
    }),
    fromPayload: (payload) => ({
      toolName: payload.tool_name,
      toolCallId: payload.tool_call_id,
      args: payload.tool_input,
      error: payload.error,
      ...(payload.mcp_context === undefined ? {} : { mcpContext: payload.mcp_context }),
    }),
    toAction: (outcome, _event, reasons) =>
      outcome.stopped
        ? ContextAction.stop(reasons.stop())
        : ContextAction.continue(reasons.context()),
    describeAction: () => ({}),
  },
};
