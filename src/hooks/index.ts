/**
 * The public surface of the hooks layer. Every export here is public API; names are exported
 * explicitly so the surface is reviewed, never grown by accident.
 */
export {
  CompletionCallAction,
  ContextAction,
  InvalidToolCallAction,
  ModelOutputAction,
  ModelSelectionAction,
  ModelTurnAction,
  ObservationAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  ToolResultAction,
  ToolSelectionAction,
} from './actions.ts';
export { HOOK_METHOD, type AgentHook, type Awaitable } from './agent-hook.ts';
export type { HookContext, HookReport, SessionInfo } from './context.ts';
export {
  STEP_EVENT_KINDS,
  type CompletionCallEvent,
  type CompletionResponseEvent,
  type HookEventKind,
  type InterruptEvent,
  type InvalidToolCallEvent,
  type InvalidToolCallReason,
  type ModelOutputEvent,
  type ModelSelectionEvent,
  type ModelTurnFinishedEvent,
  type NotificationEvent,
  type PreCompactEvent,
  type PromptSubmitEvent,
  type ReasoningDeltaEvent,
  type SessionEndEvent,
  type SessionEndReason,
  type SessionStartEvent,
  type SessionStartSource,
  type StopEvent,
  type StopFailureEvent,
  type StreamFinishEvent,
  type TextDeltaEvent,
  type ToolCallDeltaEvent,
  type ToolCallEvent,
  type ToolFailureEvent,
  type ToolOutcome,
  type ToolResultEvent,
  type ToolSelectionEvent,
} from './events.ts';
export { createHookContext, RunHookContext, type HookContextOptions } from './hook-context.ts';
export { HookError } from './hook-error.ts';
export {
  HookStack,
  JOIN_SEPARATOR,
  type HookErrorPolicy,
  type HookStackOptions,
  type ToolCallResolution,
} from './hook-stack.ts';
export {
  applyRequestPatch,
  isEmptyRequestPatch,
  isPlainObject,
  mergeRequestPatches,
  type LastWriterWinsField,
  type RequestPatch,
} from './request-patch.ts';
export { Scratchpad, scratchpadKey, type ScratchpadKey } from './scratchpad.ts';
