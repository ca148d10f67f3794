/**
 * The events layer: the event catalogue (one module per event, `catalogue.ts` deriving every
 * table), the in-process event and action types, the context hooks receive, and the external
 * side of each event (payloads, outputs, their schemas). Every export here is public API.
 */
export {
  CompletionCallAction,
  completionCall,
  requestPatchFromOverride,
  responseFromOverride,
  type BeforeModelInput,
  type BeforeModelOutput,
  type CompletionCallEvent,
} from './completion-call.ts';
export { completionResponse, type CompletionResponseEvent } from './completion-response.ts';
export { interrupt, type InterruptEvent, type InterruptInput } from './interrupt.ts';
export {
  InvalidToolCallAction,
  invalidToolCall,
  type InvalidToolCallEvent,
  type InvalidToolCallReason,
} from './invalid-tool-call.ts';
export {
  ModelOutputAction,
  modelOutput,
  type AfterModelInput,
  type AfterModelOutput,
  type ModelOutputEvent,
} from './model-output.ts';
export {
  ModelSelectionAction,
  modelSelection,
  type ModelSelectionEvent,
} from './model-selection.ts';
export {
  ModelTurnAction,
  modelTurnFinished,
  type ModelTurnFinishedEvent,
} from './model-turn-finished.ts';
export { notification, type NotificationEvent, type NotificationInput } from './notification.ts';
export {
  PermissionRequestAction,
  permissionRequest,
  type PermissionRequestDecision,
  type PermissionRequestEvent,
  type PermissionRequestInput,
  type PermissionRequestOutput,
} from './permission-request.ts';
export {
  PRE_COMPACT_TRIGGERS,
  preCompact,
  type PreCompactEvent,
  type PreCompactInput,
  type PreCompactOutput,
} from './pre-compact.ts';
export { postCompact, type PostCompactEvent, type PostCompactInput } from './post-compact.ts';
export {
  PromptSubmitAction,
  promptSubmit,
  type PromptSubmitEvent,
  type UserPromptSubmitInput,
  type UserPromptSubmitOutput,
} from './prompt-submit.ts';
export { reasoningDelta, type ReasoningDeltaEvent } from './reasoning-delta.ts';
export {
  SESSION_END_REASONS,
  sessionEnd,
  type SessionEndEvent,
  type SessionEndInput,
  type SessionEndReason,
} from './session-end.ts';
export {
  SESSION_START_SOURCES,
  sessionStart,
  type SessionStartEvent,
  type SessionStartInput,
  type SessionStartOutput,
  type SessionStartSource,
} from './session-start.ts';
export {
  subagentStart,
  type SubagentStartEvent,
  type SubagentStartInput,
  type SubagentStartOutput,
} from './subagent-start.ts';
export { subagentStop, type SubagentStopEvent, type SubagentStopInput } from './subagent-stop.ts';
export {
  StopAction,
  blockReasons,
  stop,
  type StopEvent,
  type StopInput,
  type StopOutput,
} from './stop.ts';
export { stopFailure, type StopFailureEvent, type StopFailureInput } from './stop-failure.ts';
export { streamFinish, type StreamFinishEvent } from './stream-finish.ts';
export { textDelta, type TextDeltaEvent } from './text-delta.ts';
export {
  PERMISSION_DECISIONS,
  ToolCallAction,
  applyToolInputRewrite,
  toolCall,
  toolCallResolution,
  type PermissionDecision,
  type PreToolUseOutput,
  type ToolCallAsk,
  type ToolCallEvent,
  type ToolCallResolution,
} from './tool-call.ts';
export { toolCallDelta, type ToolCallDeltaEvent } from './tool-call-delta.ts';
export {
  toolFailure,
  type PostToolUseFailureInput,
  type PostToolUseFailureOutput,
  type ToolFailureEvent,
} from './tool-failure.ts';
export {
  ToolResultAction,
  toolResult,
  type PostToolUseInput,
  type PostToolUseOutput,
  type ToolOutcome,
  type ToolResultEvent,
} from './tool-result.ts';
export {
  ToolSelectionAction,
  toolSelection,
  type BeforeToolSelectionInput,
  type BeforeToolSelectionOutput,
  type ToolSelectionEvent,
} from './tool-selection.ts';

export {
  ContextAction,
  ObservationAction,
  type McpContext,
  type ToolPayloadFields,
} from './shared.ts';
export {
  DENY_EVENTS,
  EVENTS,
  EVENT_DEFINITIONS,
  EVENT_KIND,
  HOOK_EVENT_ALIASES,
  HOOK_EVENT_NAMES,
  HOOK_METHOD,
  MATCHER_TARGET,
  OBSERVE_ONLY_EVENTS,
  STEP_EVENT_KINDS,
  STOP_EVENTS,
  TEXT_IS_CONTEXT,
  canonicalEventName,
  externalDefinition,
  externalSide,
  registeredNames,
  type CanonicalEventOf,
  type EventMap,
  type HookEventAlias,
  type HookEventKind,
  type HookEventName,
  type HookInputFieldsMap,
  type HookMethod,
  type HookSpecificOutputMap,
  type RegisteredEventName,
} from './catalogue.ts';
export {
  JOIN_SEPARATOR,
  NEXT,
  isPromiseLike,
  joinText,
  type ActionKind,
  type ActionOf,
  type AnsweringMember,
  type Awaitable,
  type Composition,
  type EventDefinition,
  type EventOf,
  type ExternalPowers,
  type ExternalSide,
  type Next,
  type OutcomeReasons,
} from './define-event.ts';
export type { CombinedOutcome } from './combined-outcome.ts';
export type { HookContext, HookReport, SessionInfo, SubagentIdentity } from './context.ts';
export {
  actionDecision,
  actionReason,
  boundedText,
  HOOK_RUN_TEXT_LIMIT,
  type HookRunDecision,
  type ObservedHookRun,
  type ObservedHookRunStatus,
} from './observed-hook-run.ts';
export { Scratchpad, scratchpadKey, type ScratchpadKey } from './scratchpad.ts';
export {
  applyRequestPatch,
  isEmptyRequestPatch,
  isPlainObject,
  mergeRequestPatches,
  type LastWriterWinsField,
  type RequestPatch,
} from './request-patch.ts';
export {
  buildHookInput,
  hookInputSchemas,
  type AnyHookInput,
  type HookInput,
  type HookInputBase,
  type HookInputContext,
} from './hook-input.ts';
export {
  decodeHookOutput,
  anyHookOutputSchema,
  hookOutputSchemas,
  hookSpecificOutputShapes,
  type HookOutput,
} from './hook-output.ts';
export { generateJsonSchemas } from './json-schemas.ts';
