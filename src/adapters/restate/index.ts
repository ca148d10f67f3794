export {
  sessionObject,
  SESSION_OBJECT_NAME,
  type DurableResult,
  type DurableRunInput,
  type DurableSessionState,
  type HookwireSessionObject,
  type SessionObjectOptions,
} from './session-object.ts';
export { JournalRunner, INTERRUPTED_CALL, type JournalRunnerOptions } from './journal-runner.ts';
export { DEFAULT_RERUN_TOOLS, recoveryPolicies, type RecoveryPolicy } from './recovery.ts';
