/**
 * The AI SDK's tool approvals answered by PermissionRequest hooks. A tool with `needsApproval`
 * (or a call the caller's own `toolApproval` sends to the user) fires `PermissionRequest` first:
 * a hook's allow runs the call (`approved`; an allow with `updatedInput`, which the AI SDK cannot
 * apply, denies), a deny gives the model the AI SDK's own denial
 * (`denied`, with the hook's reason: an `execution-denied` tool result), and no hook deciding
 * leaves the AI SDK's approval flow as it was (`user-approval`: the app gets the
 * `tool-approval-request` and answers it). Installed as the call's `toolApproval` only when some
 * tool can need approval and some hook observes PermissionRequest; otherwise the call is left as
 * the caller made it.
 */
import type { ToolSet } from 'ai';
import type { PermissionRequestEvent } from '../../events/index.ts';
import type { HookwireCore, RunScope } from '../embedding/run-scope.ts';

/** The status shapes of the AI SDK's `ToolApprovalStatus`. */
type ApprovalStatus =
  | undefined
  | 'not-applicable'
  | 'approved'
  | 'denied'
  | 'user-approval'
  | { readonly type: 'not-applicable' | 'approved' | 'denied' | 'user-approval'; reason?: string };

interface ApprovalCall {
  readonly toolCall: {
    readonly toolCallId: string;
    readonly toolName: string;
    readonly input: unknown;
  };
  readonly tools?: ToolSet | undefined;
  readonly messages: unknown;
  readonly toolsContext?: unknown;
  readonly runtimeContext?: unknown;
}

type ToolApprovalFunction = (call: ApprovalCall) => Promise<ApprovalStatus> | ApprovalStatus;
type ToolApprovalOption = ToolApprovalFunction | Readonly<Record<string, unknown>> | undefined;

interface ApprovableTool {
  readonly needsApproval?:
    | boolean
    | ((input: unknown, options: Record<string, unknown>) => boolean | PromiseLike<boolean>);
}

function statusType(status: ApprovalStatus): string {
  if (status === undefined) return 'not-applicable';
  return typeof status === 'string' ? status : status.type;
}

/** True when some tool of `tools` declares `needsApproval`. */
function someToolNeedsApproval(tools: ToolSet | undefined): boolean {
  if (tools === undefined) return false;
  return Object.values(tools).some((tool) => {
    const needs = (tool as ApprovableTool).needsApproval;
    return needs !== undefined && needs !== false;
  });
}

/**
 * What the AI SDK would decide without hookwire: the caller's `toolApproval` (a function, or
 * per-tool entries), else the tool's `needsApproval` (as the AI SDK's `resolveToolApproval`).
 */
async function ownStatus(call: ApprovalCall, own: ToolApprovalOption): Promise<ApprovalStatus> {
  if (typeof own === 'function') return own(call);
  const { toolCall } = call;
  const entry = own === undefined ? undefined : own[toolCall.toolName];
  if (entry !== undefined && entry !== null) {
    if (typeof entry === 'function')
      return (
        entry as (input: unknown, options: Record<string, unknown>) => Promise<ApprovalStatus>
      )(toolCall.input, {
        toolCallId: toolCall.toolCallId,
        messages: call.messages,
        toolContext: undefined,
        runtimeContext: call.runtimeContext,
      });
    return entry as ApprovalStatus;
  }
  const tool = call.tools?.[toolCall.toolName] as ApprovableTool | undefined;
  const needs = tool?.needsApproval;
  if (needs === undefined) return 'not-applicable';
  const needed =
    typeof needs === 'function'
      ? await needs(toolCall.input, {
          toolCallId: toolCall.toolCallId,
          messages: call.messages,
          context: undefined,
        })
      : needs;
  return needed ? 'user-approval' : 'not-applicable';
}

/**
 * The `toolApproval` option that puts the AI SDK's approval requests to PermissionRequest hooks
 * first (see the module comment), or `undefined` when the call needs none: no tool declares
 * `needsApproval` and the caller passed no `toolApproval`, or no hook observes PermissionRequest.
 */
export function hookedToolApproval(
  core: HookwireCore,
  options: { readonly tools?: ToolSet | undefined; readonly toolApproval?: unknown },
  scope: RunScope,
): ToolApprovalFunction | undefined {
  const hooks = core.hooks;
  if (!hooks.observes('permissionRequest')) return undefined;
  const own = options.toolApproval as ToolApprovalOption;
  if (own === undefined && !someToolNeedsApproval(options.tools)) return undefined;
  return async (call) => {
    const status = await ownStatus(call, own);
    if (statusType(status) !== 'user-approval') return status;
    const event: PermissionRequestEvent = {
      toolName: call.toolCall.toolName,
      toolCallId: call.toolCall.toolCallId,
      args: call.toolCall.input,
      reason:
        typeof status === 'object' && status.reason !== undefined
          ? status.reason
          : `the tool ${call.toolCall.toolName} needs approval (needsApproval)`,
      mode: core.permissions?.mode ?? 'default',
    };
    const action = await hooks.onPermissionRequest(scope.context, event);
    if (action.kind === 'deny') return { type: 'denied', reason: action.message };
    if (action.kind === 'allow') {
      // The AI SDK runs an approved call with the model's arguments: a hook that allowed other
      // arguments did not allow these, so the call is denied rather than run as asked.
      if (action.updatedInput !== undefined) {
        const reason = `a PermissionRequest hook allowed ${event.toolName} only with an updatedInput, which the AI SDK's tool approval cannot apply; denied`;
        core.report({ level: 'warning', text: reason, event: 'permissionRequest' });
        return { type: 'denied', reason };
      }
      return { type: 'approved', reason: 'allowed by a PermissionRequest hook' };
    }
    return status;
  };
}
