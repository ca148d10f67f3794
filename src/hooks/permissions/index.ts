/**
 * Permission rules (Claude Code's syntax over hookwire's tool names) and permission modes: pure
 * parsing, matching and deciding. The loop asks `decidePermission` before it runs a tool call.
 */
export {
  commandPattern,
  findMatchingRule,
  parsePermissionRule,
  pathPattern,
  splitCommand,
} from './permission-rule.ts';
export type {
  PermissionCall,
  PermissionRule,
  PermissionRuleResult,
  RuleContext,
  SplitCommand,
} from './permission-rule.ts';
export { BUILTIN_TOOL_KINDS, PERMISSION_MODES, decidePermission } from './permission-decision.ts';
export type {
  PermissionDecision,
  PermissionMode,
  PermissionPolicy,
  PermissionRules,
  PermissionToolKinds,
} from './permission-decision.ts';
export { decideCall, permissionCallOf, resolvePermission } from './permission-check.ts';
export type {
  AgentPermissions,
  PermissionAsker,
  PermissionCheckCall,
  PermissionOutcome,
} from './permission-check.ts';
export { approvalScope, sessionApprover } from './permission-approver.ts';
export type {
  ApprovalAnswer,
  ApprovalRequest,
  ApprovalScope,
  PermissionApprover,
} from './permission-approver.ts';
