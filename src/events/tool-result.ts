/**
 * `toolResult` (external `PostToolUse`, alias `AfterTool`): after a tool call resolves (or was
 * skipped by a hook), before the model sees its result.
 */
import { z } from 'zod';
import { NEXT, joinText, type EventDefinition, type ExternalSide } from './define-event.ts';
import {
  additionalContextOutput,
  asArguments,
  mcpContextField,
  toolPayloadShape,
  type McpContext,
  type ToolPayloadFields,
} from './shared.ts';

/** What a tool produced: its raw result, or the error it failed with. */
export interface ToolOutcome {
  readonly result: unknown;
  readonly error?: string;
}

/**
 * After a tool call resolves (external `PostToolUse`). `presentation` is what the model will see,
 * including earlier rewrites; `raw` never changes.
 */
export interface ToolResultEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly args: unknown;
  readonly presentation: unknown;
  readonly raw: ToolOutcome;
  /** True when the tool did not run (a hook skipped it); `raw.error` carries the reason. */
  readonly skipped: boolean;
  /** MCP tools only: the server and the tool on it (payload `mcp_context`). */
  readonly mcpContext?: McpContext;
}

/**
 * After a tool call resolves (external `PostToolUse`). Rewrites chain (a later hook sees the
 * earlier presentation) and never touch the raw result; `additionalContext` from every hook is
 * joined in order and given to the model with the result; the first `stop` short-circuits.
 */
export type ToolResultAction =
  | { readonly kind: 'keep'; readonly additionalContext?: string }
  | {
      readonly kind: 'rewrite';
      readonly presentation: unknown;
      readonly additionalContext?: string;
    }
  | { readonly kind: 'stop'; readonly reason: string };
const KEEP = Object.freeze({ kind: 'keep' as const });
export const ToolResultAction = {
  keep: (additionalContext?: string): ToolResultAction =>
    additionalContext === undefined ? KEEP : { kind: 'keep', additionalContext },
  rewrite: (presentation: unknown, additionalContext?: string): ToolResultAction =>
    additionalContext === undefined
      ? { kind: 'rewrite', presentation }
      : { kind: 'rewrite', presentation, additionalContext },
  stop: (reason: string): ToolResultAction => ({ kind: 'stop', reason }),
} as const;

/** The payload fields of `PostToolUse`. */
export interface PostToolUseInput extends ToolPayloadFields {
  readonly tool_response: unknown;
}

/** The `hookSpecificOutput` of `PostToolUse`. */
export interface PostToolUseOutput {
  readonly additionalContext?: string;
  /**
   * Replaces the result the model sees; written as `updatedToolOutput`, `tool_response` or
   * Claude Code's `updatedMCPToolOutput`. Present (even as `null`) only when the hook set it.
   */
  readonly updatedToolOutput?: unknown;
}

const TOOL_OUTPUT_NAMES = ['updatedToolOutput', 'tool_response', 'updatedMCPToolOutput'] as const;

interface ToolResultState {
  presentation: unknown;
  rewritten: boolean;
  additionalContext: string | undefined;
}

type External = ExternalSide<
  'PostToolUse',
  ToolResultEvent,
  ToolResultAction,
  PostToolUseInput,
  PostToolUseOutput,
  'AfterTool'
>;

/** Presentation rewrites chain (raw untouched); contexts joined in order; the first stop short-circuits. */
export const toolResult: EventDefinition<
  'toolResult',
  'onToolResult',
  ToolResultEvent,
  ToolResultAction,
  External
> = {
  kind: 'toolResult',
  method: 'onToolResult',
  actionKinds: ['keep', 'rewrite', 'stop'],
  compose: {
    proceed: KEEP,
    start: (): ToolResultState => ({
      presentation: undefined,
      rewritten: false,
      additionalContext: undefined,
    }),
    accept(state: ToolResultState, action) {
      if (action.kind === 'stop') return action;
      if (action.kind === 'rewrite') {
        state.presentation = action.presentation;
        state.rewritten = true;
      }
      if (action.additionalContext !== undefined)
        state.additionalContext = joinText(state.additionalContext, action.additionalContext);
      return NEXT;
    },
    eventFor: (state: ToolResultState, event) =>
      state.rewritten ? { ...event, presentation: state.presentation } : event,
    finish(state: ToolResultState) {
      if (state.rewritten) {
        return state.additionalContext === undefined
          ? ToolResultAction.rewrite(state.presentation)
          : ToolResultAction.rewrite(state.presentation, state.additionalContext);
      }
      return ToolResultAction.keep(state.additionalContext);
    },
  },
  external: {
    name: 'PostToolUse',
    aliases: ['AfterTool'],
    matcher: 'tool_name',
    can: { deny: true, stop: true, textIsContext: false, failClosed: 'deny' },
    input: () => ({ ...toolPayloadShape(), tool_response: z.unknown() }),
    output: () => ({
      additionalContext: additionalContextOutput(),
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
    }),
    toPayload: (event) => ({
      tool_name: event.toolName,
      tool_input: asArguments(event.args),
      tool_call_id: event.toolCallId,
      ...mcpContextField(event),
      // What the model will see (earlier rewrites included), so rewrites chain across hooks as
      // they do in-process; a skipped call carries its error.
      tool_response:
        event.raw.error === undefined
          ? event.presentation
          : { result: event.presentation, error: event.raw.error },
    }),
    fromPayload: (payload) => ({
      toolName: payload.tool_name,
      toolCallId: payload.tool_call_id,
      args: payload.tool_input,
      presentation: payload.tool_response,
      raw: { result: payload.tool_response },
      skipped: false,
      ...(payload.mcp_context === undefined ? {} : { mcpContext: payload.mcp_context }),
    }),
    toAction(outcome, _event, reasons) {
      const context = reasons.context();
      if (outcome.stopped) return ToolResultAction.stop(reasons.stop());
      // A denial hides the real output: the model sees the reason instead.
      if (outcome.denied) return ToolResultAction.rewrite(reasons.deny(), context);
      if (outcome.toolOutput !== undefined)
        return ToolResultAction.rewrite(outcome.toolOutput.value, context);
      return ToolResultAction.keep(context);
    },
    describeAction: (action) =>
      action.kind === 'rewrite' ? { updatedToolOutput: action.presentation } : {},
    chainPayload: (payload, specific) =>
      'updatedToolOutput' in specific
        ? { ...payload, tool_response: specific['updatedToolOutput'] }
        : payload,
    normalizeOutput(specific) {
      const written = TOOL_OUTPUT_NAMES.filter((name) => name in specific);
      const problems =
        written.length > 1
          ? [
              `give the replacement output once; found ${written.map((name) => `\`${name}\``).join(', ')}`,
            ]
          : [];
      const alias = written[0];
      if (alias === undefined || alias === 'updatedToolOutput') return { problems, specific };
      const { [alias]: output, ...rest } = specific;
      return { problems, specific: { ...rest, updatedToolOutput: output } };
    },
  },
};
