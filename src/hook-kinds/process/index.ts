/** `type: "process"` hooks: long-lived hook processes speaking JSON-RPC 2.0 over stdio. */
export {
  createProcessHookRunner,
  type ProcessHookRunner,
  type ProcessHookRunnerOptions,
  type ProcessStartContext,
} from './process-hook-runner.ts';
export { processHookLifecycle } from './process-hook-lifecycle.ts';
export { processHookSchema, processKind, type ProcessHookConfig } from './process-kind.ts';
export { JsonRpcProcess, type RpcReply, type BreakReason } from './json-rpc-process.ts';
export {
  spawnInProcessGroup,
  type HookProcessExit,
  type SpawnHookProcess,
  type SpawnHookProcessOptions,
  type SpawnedHookProcess,
} from './spawn-hook-process.ts';
