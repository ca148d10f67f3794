/**
 * What several events share: the frozen `continue` answer, the observe-only and context-adding
 * actions, their compositions, and the payload helpers of the tool events.
 */
import { z } from 'zod';
import { lazy } from '../wire/lazy.ts';
import { isJsonObject } from '../wire/json-object.ts';
import { NEXT, joinText, type Composition, type Next } from './define-event.ts';

// Shared frozen singletons: continuing is the hot path and allocates nothing.
export const CONTINUE = Object.freeze({ kind: 'continue' as const });

/**
 * Observe-only events (responses, deltas, stream finish, session end, interrupt, stop failure,
 * notification). In a stack the first `stop` short-circuits the remaining hooks.
 */
export type ObservationAction =
  { readonly kind: 'continue' } | { readonly kind: 'stop'; readonly reason: string };
export const ObservationAction = {
  continue: (): ObservationAction => CONTINUE,
  stop: (reason: string): ObservationAction => ({ kind: 'stop', reason }),
} as const;

/**
 * Advisory events that may add context (session start, tool failure, pre-compact). Contexts from
 * every hook are joined in registration order; the first `stop` short-circuits.
 */
export type ContextAction =
  | { readonly kind: 'continue'; readonly additionalContext?: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const ContextAction = {
  continue: (additionalContext?: string): ContextAction =>
    additionalContext === undefined ? CONTINUE : { kind: 'continue', additionalContext },
  stop: (reason: string): ContextAction => ({ kind: 'stop', reason }),
} as const;

/**
 * First decision wins: the first answer that is not `continue` (or, with `proceed` undefined,
 * the first answer at all) short-circuits; no decision → `proceed`.
 */
export function firstDecision<Event, Action extends { readonly kind: string } | undefined>(
  proceed: NoInfer<Action>,
): Composition<Event, Action, undefined> {
  return {
    proceed,
    start: () => undefined,
    accept: (_state, action): Action | Next =>
      action === undefined || action.kind === 'continue' ? NEXT : action,
    eventFor: (_state, event) => event,
    finish: () => proceed,
  };
}

/** The state of the compositions that join text across members. */
export interface JoinState {
  joined: string | undefined;
}

/**
 * Contexts joined in registration order; the first answer that is not `continue` (`stop`, or
 * `deny` for prompts) short-circuits and discards them. `done` builds the joined answer.
 */
export function joinContexts<
  Event,
  Action extends { readonly kind: string; readonly additionalContext?: string },
>(
  proceed: NoInfer<Action>,
  done: (joined: string | undefined) => Action,
): Composition<Event, Action, JoinState> {
  return {
    proceed,
    start: () => ({ joined: undefined }),
    accept(state, action) {
      if (action.kind !== 'continue') return action;
      if (action.additionalContext !== undefined)
        state.joined = joinText(state.joined, action.additionalContext);
      return NEXT;
    },
    eventFor: (_state, event) => event,
    finish: (state) => done(state.joined),
  };
}

/** The joined texts, `undefined` when there are none. */
export function joined(parts: readonly string[]): string | undefined {
  return parts.length === 0 ? undefined : parts.join('\n');
}

// --- the tool events' payload ----------------------------------------------------------------

/**
 * The MCP server identity on the tool events of an MCP tool (`mcp__SERVER__TOOL`), as Gemini CLI
 * sends it: the server's configured name, the tool's own name on the server, and how the server
 * is reached (`command`/`args`/`cwd` for stdio, `url` for HTTP).
 */
export interface McpContext {
  readonly server_name: string;
  readonly tool_name: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly url?: string;
}

/** The payload fields every tool event carries. */
export interface ToolPayloadFields {
  readonly tool_name: string;
  readonly tool_input: Readonly<Record<string, unknown>>;
  readonly tool_call_id: string;
  readonly mcp_context?: McpContext;
}

export const jsonRecord = lazy(() => z.record(z.string(), z.unknown()));

export const toolPayloadShape = lazy(() => ({
  tool_name: z.string(),
  tool_input: jsonRecord(),
  tool_call_id: z.string(),
  mcp_context: z
    .object({
      server_name: z.string(),
      tool_name: z.string(),
      command: z.string().optional(),
      args: z.array(z.string()).optional(),
      cwd: z.string().optional(),
      url: z.string().optional(),
    })
    .optional()
    .describe('MCP tools only: the server and the tool on it.'),
}));

/** The `mcp_context` payload field of an event that carries `mcpContext` (none: no field). */
export function mcpContextField(event: { readonly mcpContext?: McpContext }): {
  readonly mcp_context?: McpContext;
} {
  return event.mcpContext === undefined ? {} : { mcp_context: event.mcpContext };
}

/** Tool arguments as a payload's `tool_input`: an object as is, anything else wrapped. */
export function asArguments(value: unknown): Readonly<Record<string, unknown>> {
  return isJsonObject(value) ? value : { value };
}

/** `hookSpecificOutput.additionalContext`, shared by the events that add context. */
export const additionalContextOutput = lazy(() =>
  z.string().optional().describe('Added to the context the model sees.'),
);
