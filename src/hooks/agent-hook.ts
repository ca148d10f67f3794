/**
 * The typed in-process hook interface. Every method is optional: a hook implements the events it
 * cares about. A method may return its action directly or as a promise; returning synchronously
 * keeps dispatch cheap. Command hooks configured in settings files are adapted into this same
 * interface, so both kinds compose through one `HookStack`.
 */
import type {
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
import type { HookContext } from './context.ts';
import type {
  CompletionCallEvent,
  CompletionResponseEvent,
  HookEventKind,
  InterruptEvent,
  InvalidToolCallEvent,
  ModelOutputEvent,
  ModelSelectionEvent,
  ModelTurnFinishedEvent,
  NotificationEvent,
  PreCompactEvent,
  PromptSubmitEvent,
  ReasoningDeltaEvent,
  SessionEndEvent,
  SessionStartEvent,
  StopEvent,
  StopFailureEvent,
  StreamFinishEvent,
  TextDeltaEvent,
  ToolCallDeltaEvent,
  ToolCallEvent,
  ToolFailureEvent,
  ToolResultEvent,
  ToolSelectionEvent,
} from './events.ts';

export type Awaitable<T> = T | Promise<T>;

export interface AgentHook {
  /** A name for diagnostics (`HookError.hookName`, warnings). */
  readonly name?: string;

  /**
   * Interest hint: when it returns false for a kind, the stack skips this hook for that event, and
   * the loop does not build events nobody observes (deltas above all). Default: the kinds whose
   * method the hook implements.
   */
  observes?(kind: HookEventKind): boolean;

  // --- model-call step -----------------------------------------------------------------------
  /** Synchronous and local. Selections chain; last wins; stop is terminal. */
  onModelSelection?(context: HookContext, event: ModelSelectionEvent): ModelSelectionAction;
  /** External `BeforeModel`. Patches accumulate; respond/deny/stop short-circuit. */
  onCompletionCall?(
    context: HookContext,
    event: CompletionCallEvent,
  ): Awaitable<CompletionCallAction>;
  /** External `BeforeToolSelection`. Choices combine: none > required > auto; allowlists intersect. */
  onToolSelection?(context: HookContext, event: ToolSelectionEvent): Awaitable<ToolSelectionAction>;
  /** External `AfterModel`, per chunk when streaming. Replacements chain; deny/stop short-circuit. */
  onModelOutput?(context: HookContext, event: ModelOutputEvent): Awaitable<ModelOutputAction>;
  /** Observes a complete response (blocking surface). First stop short-circuits. */
  onCompletionResponse?(
    context: HookContext,
    event: CompletionResponseEvent,
  ): Awaitable<ObservationAction>;
  /** Accept, retry (tool-free turns only) or stop. First non-continue short-circuits. */
  onModelTurnFinished?(
    context: HookContext,
    event: ModelTurnFinishedEvent,
  ): Awaitable<ModelTurnAction>;

  // --- tool step -----------------------------------------------------------------------------
  /** First decision wins; `undefined` defers; no decision means fail-fast. */
  onInvalidToolCall?(
    context: HookContext,
    event: InvalidToolCallEvent,
  ): Awaitable<InvalidToolCallAction | undefined>;
  /** External `PreToolUse`. Rewrites chain; skip/stop short-circuit keeping the rewrite. */
  onToolCall?(context: HookContext, event: ToolCallEvent): Awaitable<ToolCallAction>;
  /** External `PostToolUse`. Presentation rewrites chain; raw result untouched. */
  onToolResult?(context: HookContext, event: ToolResultEvent): Awaitable<ToolResultAction>;
  /** External `PostToolUseFailure`. Contexts join; first stop short-circuits. */
  onToolFailure?(context: HookContext, event: ToolFailureEvent): Awaitable<ContextAction>;

  // --- streaming -----------------------------------------------------------------------------
  onTextDelta?(context: HookContext, event: TextDeltaEvent): Awaitable<ObservationAction>;
  onReasoningDelta?(context: HookContext, event: ReasoningDeltaEvent): Awaitable<ObservationAction>;
  onToolCallDelta?(context: HookContext, event: ToolCallDeltaEvent): Awaitable<ObservationAction>;
  onStreamFinish?(context: HookContext, event: StreamFinishEvent): Awaitable<ObservationAction>;

  // --- lifecycle (external catalogue) ----------------------------------------------------------
  onSessionStart?(context: HookContext, event: SessionStartEvent): Awaitable<ContextAction>;
  onPromptSubmit?(context: HookContext, event: PromptSubmitEvent): Awaitable<PromptSubmitAction>;
  onStop?(context: HookContext, event: StopEvent): Awaitable<StopAction>;
  onStopFailure?(context: HookContext, event: StopFailureEvent): Awaitable<ObservationAction>;
  onInterrupt?(context: HookContext, event: InterruptEvent): Awaitable<ObservationAction>;
  onPreCompact?(context: HookContext, event: PreCompactEvent): Awaitable<ContextAction>;
  onNotification?(context: HookContext, event: NotificationEvent): Awaitable<ObservationAction>;
  onSessionEnd?(context: HookContext, event: SessionEndEvent): Awaitable<ObservationAction>;
}

/** The method of `AgentHook` that handles each event kind. */
export const HOOK_METHOD = {
  modelSelection: 'onModelSelection',
  completionCall: 'onCompletionCall',
  toolSelection: 'onToolSelection',
  modelOutput: 'onModelOutput',
  completionResponse: 'onCompletionResponse',
  modelTurnFinished: 'onModelTurnFinished',
  invalidToolCall: 'onInvalidToolCall',
  toolCall: 'onToolCall',
  toolResult: 'onToolResult',
  toolFailure: 'onToolFailure',
  textDelta: 'onTextDelta',
  reasoningDelta: 'onReasoningDelta',
  toolCallDelta: 'onToolCallDelta',
  streamFinish: 'onStreamFinish',
  sessionStart: 'onSessionStart',
  promptSubmit: 'onPromptSubmit',
  stop: 'onStop',
  stopFailure: 'onStopFailure',
  interrupt: 'onInterrupt',
  preCompact: 'onPreCompact',
  notification: 'onNotification',
  sessionEnd: 'onSessionEnd',
} as const satisfies Record<HookEventKind, keyof AgentHook>;
