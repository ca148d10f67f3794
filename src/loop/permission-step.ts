/**
 * The loop's side of the permission check (`resolvePermission` in src/hooks/permissions/, shared
 * with the AI SDK's wrapped tools): PermissionRequest and the `permission_prompt` Notification
 * fire through the run's hooks, awaited no longer than the run lives, their outcomes reported on
 * the event stream.
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
  const { hooks, observed, context } = run;
  return resolvePermission(
    permissions,
    call,
    run.session.info.cwd,
    {
      async permissionRequest(event) {
        if (!observed.permissionRequest || hooks.onPermissionRequest === undefined)
          return undefined;
        const action = await run.settle(hooks.onPermissionRequest(context, event));
        run.hookOutcome(
          'permissionRequest',
          action.kind === 'deny' ? { kind: 'deny', reason: action.message } : action,
        );
        return action;
      },
      async notification(event) {
        if (!observed.notification || hooks.onNotification === undefined) return undefined;
        const action = await run.settle(hooks.onNotification(context, event));
        run.hookOutcome('notification', action);
        return action;
      },
    },
    validate,
  );
}
