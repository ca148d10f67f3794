/**
 * `toolCall` (external `PreToolUse`, alias `BeforeTool`): before a valid tool call runs.
 */
import { z } from 'zod';
import { isJsonObject } from '../wire/json-object.ts';
import { NEXT, type EventDefinition, type ExternalSide } from './define-event.ts';
import {
  asArguments,
  jsonRecord,
  mcpContextField,
  toolPayloadShape,
  type McpContext,
  type ToolPayloadFields,
} from './shared.ts';

/** Before a valid tool call runs (external `PreToolUse`). `args` includes earlier rewrites. */
export interface ToolCallEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  /** Effective arguments, including rewrites by earlier hooks. */
  readonly args: unknown;
  /** The arguments as the model emitted them. */
  readonly originalArgs: unknown;
  /** MCP tools only: the server and the tool on it (payload `mcp_context`). */
  readonly mcpContext?: McpContext;
}

/**
 * Before a valid tool call runs (external `PreToolUse`). Rewrites chain into later hooks; the
 * first `skip` or `stop` short-circuits, and an earlier rewrite survives it (the stack reports the
 * effective arguments beside the action). `skip` sends the reason to the model as the tool's error.
 *
 * `args` on `skip`/`stop` carries the effective arguments when something rewrote them before the
 * terminal action: a `HookStack` sets it so that the rewrite survives across nested stacks (an
 * outer stack adopts it as its own effective arguments), and a hook may set it to rewrite and
 * skip in one step. Absent: the arguments were not rewritten. `HookStack.resolveToolCall`
 * returns the effective arguments beside the action, so the loop need not read it.
 */
export type ToolCallAction =
  | { readonly kind: 'run' }
  | { readonly kind: 'rewrite'; readonly args: unknown }
  | {
      readonly kind: 'skip';
      readonly reason: string;
      readonly args?: unknown;
      /**
       * Set when the skip stands for an `ask` (PreToolUse `permissionDecision: "ask"`): a host
       * with a person to ask (`hookwire run` at a terminal) asks them instead; any other host
       * skips with `reason`, as a headless run must.
       */
      readonly ask?: ToolCallAsk;
    }
  | { readonly kind: 'stop'; readonly reason: string; readonly args?: unknown }
  /**
   * A supplied result: the tool does not run and the model sees `result` as the call's output.
   * PostToolUse then fires for it as for a call that ran (not `skipped`), so later hooks still see
   * it and may rewrite it. Terminal like `skip`/`stop`: the first one short-circuits, and an
   * earlier rewrite survives in `args`. The permission check is not consulted (nothing runs).
   */
  | { readonly kind: 'result'; readonly result: unknown; readonly args?: unknown };

/** Who asked for approval of a tool call, and why (see `ToolCallAction.ask`). */
export interface ToolCallAsk {
  /** `hook "guard" (PreToolUse)`. */
  readonly by: string;
  readonly reason: string;
}
const RUN = Object.freeze({ kind: 'run' as const });
export const ToolCallAction = {
  run: (): ToolCallAction => RUN,
  rewrite: (args: unknown): ToolCallAction => ({ kind: 'rewrite', args }),
  /** `effectiveArgs`: the rewritten arguments in force when skipping (see the type's doc). */
  skip: (reason: string, ...effectiveArgs: [args?: unknown]): ToolCallAction =>
    effectiveArgs.length === 0
      ? { kind: 'skip', reason }
      : { kind: 'skip', reason, args: effectiveArgs[0] },
  /**
   * Asks a person before the call runs (a skip with `ask`; see the type): `reason` is the skip's
   * reason where nobody can be asked, `ask` what the prompt shows.
   */
  ask: (reason: string, ask: ToolCallAsk): ToolCallAction => ({ kind: 'skip', reason, ask }),
  /** `effectiveArgs`: the rewritten arguments in force when stopping (see the type's doc). */
  stop: (reason: string, ...effectiveArgs: [args?: unknown]): ToolCallAction =>
    effectiveArgs.length === 0
      ? { kind: 'stop', reason }
      : { kind: 'stop', reason, args: effectiveArgs[0] },
  /**
   * Supplies the call's result: the tool does not run, the model sees `result` (see the type's
   * doc). `effectiveArgs`: the rewritten arguments in force, as for `skip`/`stop`.
   */
  result: (result: unknown, ...effectiveArgs: [args?: unknown]): ToolCallAction =>
    effectiveArgs.length === 0
      ? { kind: 'result', result }
      : { kind: 'result', result, args: effectiveArgs[0] },
} as const;

/**
 * The outcome of resolving a tool call through a stack: the final action and the arguments in
 * force with it. `args` is the effective arguments (the last rewrite, or `event.args` when nothing
 * rewrote them), also when the action is `skip` or `stop`: a rewrite survives a later skip or stop.
 */
export interface ToolCallResolution {
  readonly action: ToolCallAction;
  readonly args: unknown;
  /** True when some hook rewrote the arguments. */
  readonly rewritten: boolean;
}

/** The resolution a stack's final tool-call action stands for (see `ToolCallResolution`). */
export function toolCallResolution(
  action: ToolCallAction,
  event: ToolCallEvent,
): ToolCallResolution {
  if (action.kind === 'rewrite') return { action, args: action.args, rewritten: true };
  if (action.kind !== 'run' && 'args' in action)
    return { action, args: action.args, rewritten: true };
  return { action, args: event.args, rewritten: false };
}

/** PreToolUse `permissionDecision` (Claude Code). */
export const PERMISSION_DECISIONS = ['allow', 'deny', 'ask'] as const;
export type PermissionDecision = (typeof PERMISSION_DECISIONS)[number];

/** The `hookSpecificOutput` of `PreToolUse`. */
export interface PreToolUseOutput {
  readonly permissionDecision?: PermissionDecision;
  readonly permissionDecisionReason?: string;
  /** Merged over the tool's arguments (Gemini CLI). */
  readonly tool_input?: Readonly<Record<string, unknown>>;
  /** Replaces the tool's arguments (Claude Code). */
  readonly updatedInput?: Readonly<Record<string, unknown>>;
}

/**
 * Applies one hook's argument rewrite: `tool_input` merges over the arguments (Gemini CLI),
 * `updatedInput` replaces them (Claude Code).
 */
export function applyToolInputRewrite(
  args: unknown,
  specific: PreToolUseOutput | undefined,
): unknown {
  if (specific === undefined) return args;
  if (specific.updatedInput !== undefined) return specific.updatedInput;
  if (specific.tool_input !== undefined)
    return { ...(isJsonObject(args) ? args : {}), ...specific.tool_input };
  return args;
}

interface ToolCallState {
  args: unknown;
  rewritten: boolean;
  /** The event later members see, built once per rewrite. */
  event: ToolCallEvent | undefined;
}

type External = ExternalSide<
  'PreToolUse',
  ToolCallEvent,
  ToolCallAction,
  ToolPayloadFields,
  PreToolUseOutput,
  'BeforeTool'
>;

/**
 * Rewrites chain (later members see the rewritten `event.args`); the first skip/stop/result
 * short-circuits. The stack answers `rewrite(args)` when some member rewrote and all proceeded,
 * `run` when none rewrote, and the terminal skip/stop/result carrying the effective `args` when a rewrite
 * preceded it (so a parent stack keeps the rewrite).
 */
export const toolCall: EventDefinition<
  'toolCall',
  'onToolCall',
  ToolCallEvent,
  ToolCallAction,
  External
> = {
  kind: 'toolCall',
  method: 'onToolCall',
  actionKinds: ['run', 'rewrite', 'skip', 'stop', 'result'],
  compose: {
    proceed: RUN,
    // State exists only once some member answered other than `run`: the all-run path allocates nothing.
    start: (event: ToolCallEvent): ToolCallState => ({
      args: event.args,
      rewritten: false,
      event: undefined,
    }),
    accept(state: ToolCallState, action) {
      if (action.kind === 'run') return NEXT;
      if (action.kind === 'rewrite') {
        state.args = action.args;
        state.rewritten = true;
        state.event = undefined;
        return NEXT;
      }
      // skip, stop or result. Carrying `args`, the member (typically a nested stack) rewrote
      // before it: its arguments are the effective ones. Otherwise an earlier rewrite survives it.
      if ('args' in action || !state.rewritten) return action;
      if (action.kind === 'result') return ToolCallAction.result(action.result, state.args);
      if (action.kind === 'skip' && action.ask !== undefined)
        return { ...action, args: state.args };
      return action.kind === 'skip'
        ? ToolCallAction.skip(action.reason, state.args)
        : ToolCallAction.stop(action.reason, state.args);
    },
    eventFor(state: ToolCallState, event) {
      if (!state.rewritten) return event;
      return (state.event ??= { ...event, args: state.args });
    },
    finish: (state: ToolCallState) =>
      state.rewritten ? ToolCallAction.rewrite(state.args) : ToolCallAction.run(),
  },
  external: {
    name: 'PreToolUse',
    aliases: ['BeforeTool'],
    matcher: 'tool_name',
    can: { deny: true, stop: true, textIsContext: false, failClosed: 'deny' },
    input: () => toolPayloadShape(),
    output: () => ({
      permissionDecision: z.enum(PERMISSION_DECISIONS).optional(),
      permissionDecisionReason: z.string().optional(),
      tool_input: jsonRecord().optional().describe('Merged over the arguments (Gemini CLI).'),
      updatedInput: jsonRecord().optional().describe('Replaces the arguments (Claude Code).'),
    }),
    toPayload: (event) => ({
      tool_name: event.toolName,
      tool_input: asArguments(event.args),
      tool_call_id: event.toolCallId,
      ...mcpContextField(event),
    }),
    fromPayload: (payload) => ({
      toolName: payload.tool_name,
      toolCallId: payload.tool_call_id,
      args: payload.tool_input,
      originalArgs: payload.tool_input,
      ...(payload.mcp_context === undefined ? {} : { mcpContext: payload.mcp_context }),
    }),
    toAction(outcome, _event, reasons) {
      if (outcome.stopped) return ToolCallAction.stop(reasons.stop());
      if (outcome.denied)
        return outcome.asks === undefined
          ? ToolCallAction.skip(reasons.deny())
          : ToolCallAction.ask(reasons.deny(), {
              by: outcome.asks.map((ask) => ask.by).join(', '),
              reason: outcome.asks.map((ask) => ask.reason).join('; '),
            });
      if ('args' in outcome) return ToolCallAction.rewrite(outcome.args);
      return ToolCallAction.run();
    },
    describeAction(action) {
      if (action.kind === 'rewrite') return { tool_input: action.args };
      return action.kind !== 'run' && 'args' in action ? { tool_input: action.args } : {};
    },
    chainPayload(payload, specific) {
      const args = applyToolInputRewrite(payload.tool_input, specific);
      return args === payload.tool_input
        ? payload
        : { ...payload, tool_input: args as Readonly<Record<string, unknown>> };
    },
    normalizeOutput: (specific) => ({
      problems:
        'tool_input' in specific && 'updatedInput' in specific
          ? [
              'give either `tool_input` (merged over the arguments) or `updatedInput` (replaces them), not both',
            ]
          : [],
      specific,
    }),
  },
};
