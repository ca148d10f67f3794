/**
 * One tool call, for every host (Claude Code's order):
 *
 * 1. PreToolUse (`toolCall`): rewrites chain and the call runs with the rewritten arguments; a
 *    skip does not run it and the model sees the reason; a stop does the same and ends the run
 *    after the step; a supplied result (`ToolCallAction.result`) does not run it and the model
 *    sees that result, reviewed by PostToolUse as a result of a call that ran (no permission
 *    check: nothing runs).
 * 2. The permission rules and mode decide on the arguments as PreToolUse left them
 *    (`resolvePermission`: deny, allow, or ask through PermissionRequest); a refusal is handled
 *    like a skip.
 * 3. After the tool: PostToolUse (`toolResult`) — also after a skip or refusal, `skipped: true` —
 *    rewrites what the model sees (a value JSON cannot encode is refused with a warning) and adds
 *    context; PostToolUseFailure (`toolFailure`) adds context to a failure. Either may stop the
 *    run after the step.
 */
import type { McpContext, ToolCallAsk } from '../events/index.ts';
import { toolCallResolution } from '../events/index.ts';
import { jsonEncodingProblem } from '../content/json-encodable.ts';
import {
  resolvePermission,
  type AgentPermissions,
  type PermissionApprover,
  type PermissionAsker,
} from '../hooks/permissions/index.ts';
import type { LifecycleHooks } from './lifecycle-hooks.ts';

/** The facts of one call. */
export interface ToolCallFacts {
  readonly toolName: string;
  readonly toolCallId: string;
  /** The arguments the model sent (parsed). */
  readonly args: unknown;
  /** An MCP tool's server and name on it. */
  readonly mcpContext?: McpContext;
}

/** What the host does with the call before running it. */
export type BeforeToolDecision =
  | {
      readonly kind: 'run';
      readonly args: unknown;
      /** True when a hook (or a PermissionRequest's `updatedInput`) changed the arguments. */
      readonly rewritten: boolean;
    }
  | {
      readonly kind: 'skip';
      readonly rewritten: boolean;
      /** The arguments as the hooks left them. */
      readonly args: unknown;
      /** What the model sees as the call's error. */
      readonly reason: string;
      /** Set when a hook stopped the run (it ends after the step; no PostToolUse fires). */
      readonly stop: string | undefined;
    }
  | {
      /**
       * A hook supplied the call's result: the host must not run the tool; the model sees
       * `result` as the call's output, after PostToolUse (`skipped: false`) reviewed it. A host
       * that cannot hand the model a result of its own must refuse the call with a clear reason
       * (never run the tool).
       */
      readonly kind: 'supply';
      readonly rewritten: boolean;
      readonly args: unknown;
      readonly result: unknown;
    };

/** How the permission check reaches the host: its rules, project and schema check. */
export interface ToolPermissions {
  /** The rules and mode; absent when the host has none but a person to ask (`approver`). */
  readonly permissions: AgentPermissions | undefined;
  readonly cwd: string;
  /** Checks a PermissionRequest's `updatedInput` against the tool's schema (a message if not). */
  validate(args: unknown): string | undefined | Promise<string | undefined>;
  /** A person to ask when no hook decides (an interactive terminal). Absent: refuse. */
  readonly approver?: PermissionApprover;
  /** Ends a prompt in progress (the run's cancellation). */
  readonly signal?: AbortSignal;
  /** The subagent whose call it is, shown in the prompt; absent for the main agent. */
  readonly agentName?: string;
}

/** The permission layer a hook's `ask` is put through when the host has none of its own. */
const NO_RULES: AgentPermissions = { rules: { allow: [], deny: [], ask: [] } };

const fields = (call: ToolCallFacts): { readonly mcpContext?: McpContext } =>
  call.mcpContext === undefined ? NO_FIELDS : { mcpContext: call.mcpContext };
const NO_FIELDS = Object.freeze({});

/**
 * PreToolUse, then the permission check. Returns at once, with no promise, when no hook observes
 * PreToolUse and there is no permission layer.
 */
export function beforeToolCall(
  hooks: LifecycleHooks,
  call: ToolCallFacts,
  permissions: ToolPermissions | undefined,
): BeforeToolDecision | Promise<BeforeToolDecision> {
  const event = {
    toolName: call.toolName,
    toolCallId: call.toolCallId,
    args: call.args,
    originalArgs: call.args,
    ...fields(call),
  };
  const fired = hooks.fire('toolCall', () => event);
  if (fired === undefined) {
    if (permissions?.permissions === undefined)
      return { kind: 'run', args: call.args, rewritten: false };
    return checkPermission(hooks, call, call.args, false, permissions, undefined);
  }
  return fired.then((action): BeforeToolDecision | Promise<BeforeToolDecision> => {
    // The final action says whether the arguments were rewritten (a skip/stop carries them).
    const { args, rewritten } = toolCallResolution(action, event);
    // A hook's `ask` goes to the person at the terminal when there is one, else it skips.
    if (action.kind === 'skip' && action.ask !== undefined && permissions?.approver !== undefined)
      return checkPermission(hooks, call, args, rewritten, permissions, action.ask);
    if (action.kind === 'skip')
      return { kind: 'skip', args, rewritten, reason: action.reason, stop: undefined };
    if (action.kind === 'result') return { kind: 'supply', args, rewritten, result: action.result };
    if (action.kind === 'stop')
      return {
        kind: 'skip',
        args,
        rewritten,
        reason: `the run was stopped: ${action.reason}`,
        stop: action.reason,
      };
    if (permissions?.permissions === undefined) return { kind: 'run', args, rewritten };
    return checkPermission(hooks, call, args, rewritten, permissions, undefined);
  });
}

async function checkPermission(
  hooks: LifecycleHooks,
  call: ToolCallFacts,
  args: unknown,
  rewritten: boolean,
  check: ToolPermissions,
  hookAsk: ToolCallAsk | undefined,
): Promise<BeforeToolDecision> {
  const asker: PermissionAsker = {
    permissionRequest: async (event) =>
      hooks.fire(
        'permissionRequest',
        () => event,
        (action) => (action.kind === 'deny' ? { kind: 'deny', reason: action.message } : action),
      ),
    notification: async (event) => hooks.fire('notification', () => event),
    ...(check.approver === undefined ? {} : { approver: check.approver }),
    ...(check.signal === undefined ? {} : { signal: check.signal }),
    ...(check.agentName === undefined ? {} : { agentName: check.agentName }),
  };
  const outcome = await resolvePermission(
    check.permissions ?? NO_RULES,
    {
      toolName: call.toolName,
      toolCallId: call.toolCallId,
      args,
      ...fields(call),
      ...(hookAsk === undefined ? {} : { hookAsk }),
    },
    check.cwd,
    asker,
    (candidate) => check.validate(candidate),
  );
  return outcome.kind === 'refuse'
    ? { kind: 'skip', args, rewritten, reason: outcome.reason, stop: undefined }
    : { kind: 'run', args: outcome.args, rewritten: rewritten || outcome.args !== args };
}

/** What the model sees of a call, decided by PostToolUse or PostToolUseFailure. */
export interface AfterToolDecision {
  /** True when a hook replaced the result the model sees with `presentation`. */
  readonly rewritten: boolean;
  readonly presentation: unknown;
  /** Context the model sees after the result. */
  readonly additionalContext: string | undefined;
  /** Set when a hook stopped the run (it ends after the step). */
  readonly stop: string | undefined;
}

/** The facts of a call's outcome. */
export interface ToolOutcomeFacts extends ToolCallFacts {
  readonly result: unknown;
  /** The error the model sees (a skip's or refusal's reason, or the tool's failure). */
  readonly error?: string | undefined;
  /** True when the call did not run (a hook skipped it, or the permission check refused it). */
  readonly skipped: boolean;
}

/**
 * PostToolUse after a call that ran or was skipped. Returns `undefined` at once, with no
 * promise, when no hook observes it (the model sees the result as it is).
 */
export function afterToolCall(
  hooks: LifecycleHooks,
  call: ToolOutcomeFacts,
): Promise<AfterToolDecision> | undefined {
  const fired = hooks.fire('toolResult', () => ({
    toolName: call.toolName,
    toolCallId: call.toolCallId,
    args: call.args,
    presentation: call.result,
    raw:
      call.error === undefined
        ? { result: call.result }
        : { result: call.result, error: call.error },
    skipped: call.skipped,
    ...fields(call),
  }));
  if (fired === undefined) return undefined;
  return fired.then((action): AfterToolDecision => {
    if (action.kind === 'stop')
      return {
        rewritten: false,
        presentation: call.result,
        additionalContext: undefined,
        stop: action.reason,
      };
    if (action.kind === 'rewrite') {
      const problem = jsonEncodingProblem(action.presentation);
      if (problem === undefined)
        return {
          rewritten: true,
          presentation: action.presentation,
          additionalContext: action.additionalContext,
          stop: undefined,
        };
      hooks.report({
        level: 'warning',
        text: `a PostToolUse hook rewrote the result of call ${call.toolCallId} (${call.toolName}) to a value JSON cannot encode (${problem.path}: ${problem.reason}); the tool's own result was kept`,
        event: 'toolResult',
      });
    }
    return {
      rewritten: false,
      presentation: call.result,
      additionalContext: action.additionalContext,
      stop: undefined,
    };
  });
}

/** What PostToolUseFailure decided for a failed call. */
export interface ToolFailedDecision {
  readonly additionalContext: string | undefined;
  readonly stop: string | undefined;
}

/**
 * PostToolUseFailure after a call whose tool failed with `error`. `undefined` at once when no
 * hook observes it.
 */
export function toolFailed(
  hooks: LifecycleHooks,
  call: ToolCallFacts & { readonly error: string },
): Promise<ToolFailedDecision> | undefined {
  const fired = hooks.fire('toolFailure', () => ({
    toolName: call.toolName,
    toolCallId: call.toolCallId,
    args: call.args,
    error: call.error,
    ...fields(call),
  }));
  if (fired === undefined) return undefined;
  return fired.then((action) =>
    action.kind === 'stop'
      ? { additionalContext: undefined, stop: action.reason }
      : { additionalContext: action.additionalContext, stop: undefined },
  );
}
