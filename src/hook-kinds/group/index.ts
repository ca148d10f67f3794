/**
 * Command hooks: settings, the supervised runner, and the adapter that turns each settings group
 * into an `AgentHook`. Every export here is public API.
 */
export { combineOutcomes, type CombinedOutcome } from './combine-outcomes.ts';
export {
  DENY_EVENTS,
  STOP_EVENTS,
  TEXT_IS_CONTEXT,
  applyToolInputRewrite,
} from '../../events/index.ts';
export {
  EVENT_KIND,
  commandHookForGroup,
  groupName,
  requestPatchFromOverride,
  responseFromOverride,
  type CommandHookOptions,
} from './external-hook.ts';
export { createCommandHooks } from './create-hooks.ts';
export {
  fireCommandHooks,
  type FireCommandHooksOptions,
  type FireHookEntry,
  type FireResult,
} from './fire-hooks.ts';
export { interpretRun } from '../command/command-answer.ts';
export { type HookRunOutcome, type HookRunRecord, type HookRunStatus } from '../hook-run.ts';
export { verdictOf, type HookRunVerdict } from './hook-verdict.ts';
export {
  runHookGroup,
  type HookGroupRun,
  type HookGroupRunOptions,
  type HookProcessOptions,
} from './run-hook-group.ts';
export {
  BWRAP_INSTALL_HINT,
  CREDENTIAL_NAME_PATTERNS,
  bwrapArguments,
  checkBwrap,
  confineCommand,
  credentialVariables,
  findBwrap,
  isCredentialName,
  shellQuote,
  type ProcessConfinement,
  type SandboxOptions,
} from '../../supervision/process-confinement.ts';
export * from '../../supervision/index.ts';
export * from '../settings/index.ts';
