/**
 * The loop's side of the permission check (`resolvePermission` in src/hooks/permissions/, shared
 * with the AI SDK's wrapped tools): PermissionRequest and the `permission_prompt` Notification
 * fire through the run's hooks, awaited no longer than the run lives, their outcomes reported on
 * the event stream; the agent's `approver` (a terminal) is asked when no hook decides.
 */
import {
  resolvePermission,
  type AgentPermissions,
  type PermissionCheckCall,
  type PermissionOutcome,
} from '../hooks/permissions/index.ts';
import type { RunState } from './run-state.ts';

export {
  decideCall,
  permissionCallOf,
  type AgentPermissions,
  type ApprovalAnswer,
  type ApprovalRequest,
  type PermissionApprover,
  type PermissionOutcome,
} from '../hooks/permissions/index.ts';

/**
 * Runs the permission check of one call in `run` (see `resolvePermission`). `validate` checks an
 * `updatedInput` against the tool's schema (an invalid one refuses the call).
 */
export function checkPermission(
  run: RunState,
  permissions: AgentPermissions,
  call: PermissionCheckCall,
  validate: (args: unknown) => string | undefined,
): Promise<PermissionOutcome> {
  return resolvePermission(
    permissions,
    call,
    run.session.info.cwd,
    {
      permissionRequest: async (event) =>
        run.fire(
          'permissionRequest',
          () => event,
          (action) => (action.kind === 'deny' ? { kind: 'deny', reason: action.message } : action),
        ),
      notification: async (event) => run.fire('notification', () => event),
      ...(run.config.approver === undefined ? {} : { approver: run.config.approver }),
      signal: run.signal,
      ...(run.child === undefined ? {} : { agentName: run.child.agent.type }),
    },
    validate,
  );
}
