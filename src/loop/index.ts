/**
 * The loop layer's public surface: every export here is public API.
 */
export { createAgent, type Agent, type AgentOptions, type OpenSessionOptions } from './agent.ts';
export { Session, type CompactOptions, type RunOptions } from './session.ts';
export type { RunEvent, RunHandle, RunResult, RunStatus } from './run-events.ts';
export type { AgentConfig } from './run-state.ts';
export type {
  HookRunLog,
  HookStepInfo,
  ModelStepInfo,
  StepRunner,
  ToolStepInfo,
} from './step-runner.ts';
export { LoopError } from './loop-error.ts';
export {
  DEFAULT_CLOSING_HOOK_BUDGET_MS,
  DEFAULT_INVALID_TOOL_CALLS_PER_TURN,
  DEFAULT_MAX_MODEL_CALLS,
  DEFAULT_STOP_CONTINUATIONS_PER_TURN,
} from './budgets.ts';
export {
  readTranscript,
  historyOf,
  TranscriptWriteError,
  TRANSCRIPT_VERSION,
  type TranscriptContents,
  type TranscriptRecord,
} from './transcript.ts';
export type { Tool, ToolExecutionContext } from './tool.ts';
export type {
  LoopSpan,
  LoopSpanOptions,
  LoopTracer,
  SpanAttributes,
  SpanAttributeValue,
} from './tracer.ts';
export { genAiProviderName, type ModelCallEnd, type ToolCallStatus } from './run-telemetry.ts';
export {
  ToolRegistry,
  ToolRegistryError,
  type ToolArgumentsValidation,
  type ToolRegistryOptions,
} from './tool-registry.ts';
export {
  decideCall,
  permissionCallOf,
  type AgentPermissions,
  type ApprovalAnswer,
  type ApprovalRequest,
  type PermissionApprover,
  type PermissionOutcome,
} from './permission-step.ts';
export {
  AGENT_TOOL_NAME,
  DEFAULT_MAX_AGENT_DEPTH,
  childTranscriptPath,
  type SubagentOptions,
} from './subagent.ts';
export {
  AgentTypeError,
  GENERAL_PURPOSE_AGENT,
  loadAgentFiles,
  parseAgentFile,
  toolSelector,
  type AgentType,
  type AgentTypeDefinition,
  type ParsedAgentFile,
} from './agent-types.ts';
export {
  CHARS_PER_TOKEN,
  estimateMessageTokens,
  planCompaction,
  toolPairingProblems,
  type CompactionPlan,
} from './compaction.ts';
export type { CompactionOutcome } from './compact-step.ts';
