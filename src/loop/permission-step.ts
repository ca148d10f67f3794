/**
 * The loop's view of the permission layer (`src/hooks/permissions/`). The check of one call runs
 * in the lifecycle's `beforeToolCall` (src/lifecycle/tool-call.ts), the same for every host: its
 * PermissionRequest and `permission_prompt` Notification fire through the run's hooks, awaited no
 * longer than the run lives, their outcomes reported on the event stream.
 */
export {
  decideCall,
  permissionCallOf,
  type AgentPermissions,
  type ApprovalAnswer,
  type ApprovalRequest,
  type PermissionApprover,
  type PermissionOutcome,
} from '../hooks/permissions/index.ts';
