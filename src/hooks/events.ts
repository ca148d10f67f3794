/**
 * The in-process event catalogue: one event type per hook method of `AgentHook`.
 *
 * Events are read-only views built by the loop. Fine-grained step events follow
 * `seeds/001_…` (rig); lifecycle events follow the external catalogue of the design brief
 * (`SessionStart`, `UserPromptSubmit`, `Stop`, …) so command hooks adapt onto them one to one.
 */
import type {
  FinishReason,
  LanguageModel,
  Message,
  ModelRequest,
  ModelResponse,
  ToolChoice,
  ToolDeclaration,
  Usage,
} from '../content/index.ts';
import type { RequestPatch } from './request-patch.ts';

/** Which step event a hook observes; used by `observes(kind)` to skip building unobserved events. */
export const STEP_EVENT_KINDS = [
  'modelSelection',
  'completionCall',
  'completionResponse',
  'modelOutput',
  'modelTurnFinished',
  'invalidToolCall',
  'toolCall',
  'toolResult',
  'toolFailure',
  'textDelta',
  'reasoningDelta',
  'toolCallDelta',
  'streamFinish',
  'toolSelection',
  'sessionStart',
  'sessionEnd',
  'promptSubmit',
  'stop',
  'stopFailure',
  'interrupt',
  'preCompact',
  'notification',
] as const;

export type HookEventKind = (typeof STEP_EVENT_KINDS)[number];

// ---------------------------------------------------------------------------------------------
// Model-call step

/**
 * Fires synchronously after completion-call hooks proceed, before the request is prepared.
 * `selected` is the candidate after every earlier selection hook.
 */
export interface ModelSelectionEvent {
  readonly prompt: Message;
  readonly history: readonly Message[];
  /** The merged patch of this step's completion-call hooks, when any hook patched. */
  readonly requestPatch: RequestPatch | undefined;
  /** The model of the previous issued attempt in this run, if any. */
  readonly previousModel: LanguageModel | undefined;
  readonly defaultModel: LanguageModel;
  readonly selected: LanguageModel;
}

/**
 * Fires before each model call (external `BeforeModel`), first of the step's request hooks:
 * completion call, then tool selection, then model selection, then the call. `request` is the
 * request as the loop would send it before any hook changed it (the tools are all the tools the
 * step offers; tool selection narrows them afterwards).
 */
export interface CompletionCallEvent {
  /** The prompt that opened this turn (or the latest continuation/feedback message). */
  readonly prompt: Message;
  /** History preceding the prompt. */
  readonly history: readonly Message[];
  /** One-based model-call index within the run. */
  readonly turn: number;
  readonly request: ModelRequest;
}

/**
 * Fires before each model call on the tool list (external `BeforeToolSelection`).
 */
export interface ToolSelectionEvent {
  readonly request: ModelRequest;
  readonly tools: readonly ToolDeclaration[];
  /** The tool choice in force before hooks (from settings or an earlier patch). */
  readonly toolChoice: ToolChoice | undefined;
}

/** A complete model response (blocking) or the assembled streamed response. Observe only. */
export interface CompletionResponseEvent {
  readonly prompt: Message;
  readonly response: ModelResponse;
  readonly usage: Usage | undefined;
  /** The provider's message/response id, when it gave one. */
  readonly messageId: string | undefined;
  /** The provider's raw response for this attempt, `undefined` for synthetic responses. */
  readonly raw: unknown;
}

/**
 * The model's output as it arrives (external `AfterModel`): each chunk when streaming, the whole
 * response when blocking. A hook may replace it, deny it (the turn is aborted) or stop the run.
 */
export interface ModelOutputEvent {
  readonly request: ModelRequest;
  /** For a chunk: the chunk's content only; `finishReason` only on the terminal chunk. */
  readonly response: ModelResponse;
  /** True for a streamed chunk, false for a complete (blocking) response. */
  readonly isChunk: boolean;
  /** True on the last chunk of a stream, and for a complete response. */
  readonly isTerminal: boolean;
}

/**
 * A model turn was accepted and parked before tool execution or finalization. A hook may retry a
 * tool-free turn (charged to the run's model-call budget).
 */
export interface ModelTurnFinishedEvent {
  readonly turn: number;
  readonly content: Message;
  readonly usage: Usage | undefined;
  /** Normalized and reconciled (`stop` with tool calls reads `tool_calls`); `undefined`: none reported. */
  readonly finishReason: FinishReason | undefined;
  readonly rawStopReason: string | undefined;
  /** The output-token cap this attempt ran under, after patches; `undefined`: none sent. */
  readonly maxTokens: number | undefined;
  readonly hasToolCalls: boolean;
  readonly messageId: string | undefined;
  readonly raw: unknown;
}

// ---------------------------------------------------------------------------------------------
// Tool step

/** Why a model-emitted tool call cannot be dispatched as written. */
export type InvalidToolCallReason = 'unknown_tool' | 'invalid_arguments' | 'tool_not_allowed';

export interface InvalidToolCallEvent {
  readonly reason: InvalidToolCallReason;
  /** Human-readable diagnostics: e.g. the JSON Schema errors of the arguments. */
  readonly detail: string;
  readonly toolName: string;
  readonly toolCallId: string;
  /** The arguments the model emitted (decoded JSON, or the raw string when it did not parse). */
  readonly args: unknown;
  readonly availableTools: readonly string[];
  readonly allowedTools: readonly string[];
  readonly toolChoice: ToolChoice | undefined;
}

/** Before a valid tool call runs (external `PreToolUse`). `args` includes earlier rewrites. */
export interface ToolCallEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  /** Effective arguments, including rewrites by earlier hooks. */
  readonly args: unknown;
  /** The arguments as the model emitted them. */
  readonly originalArgs: unknown;
}

/** What a tool produced: its raw result, or the error it failed with. */
export interface ToolOutcome {
  readonly result: unknown;
  readonly error?: string;
}

/**
 * After a tool call resolves (external `PostToolUse`). `presentation` is what the model will see,
 * including earlier rewrites; `raw` never changes.
 */
export interface ToolResultEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly args: unknown;
  readonly presentation: unknown;
  readonly raw: ToolOutcome;
  /** True when the tool did not run (a hook skipped it); `raw.error` carries the reason. */
  readonly skipped: boolean;
}

/** A tool call failed (external `PostToolUseFailure`). */
export interface ToolFailureEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly args: unknown;
  readonly error: string;
}

// ---------------------------------------------------------------------------------------------
// Streaming

export interface TextDeltaEvent {
  readonly delta: string;
  /** Text accumulated for the model turn so far. */
  readonly aggregated: string;
}

export interface ReasoningDeltaEvent {
  /** Correlator stable across one reasoning part's deltas. */
  readonly id: string;
  readonly delta: string;
  readonly aggregated: string;
}

export interface ToolCallDeltaEvent {
  /** Stable across this call's fragments within the model turn. */
  readonly index: number;
  readonly toolCallId: string | undefined;
  readonly toolName: string | undefined;
  readonly delta: string;
}

export interface StreamFinishEvent {
  readonly prompt: Message;
  readonly response: ModelResponse;
}

// ---------------------------------------------------------------------------------------------
// Lifecycle (external catalogue)

export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact';
export type SessionEndReason = 'exit' | 'clear' | 'logout' | 'prompt_input_exit' | 'other';

export interface SessionStartEvent {
  readonly source: SessionStartSource;
}

export interface SessionEndEvent {
  readonly reason: SessionEndReason;
}

/** A prompt was submitted, before the model sees it (external `UserPromptSubmit`). */
export interface PromptSubmitEvent {
  readonly prompt: string;
}

/** A turn completed (external `Stop`): see the design brief's "Turn lifecycle". */
export interface StopEvent {
  /** True when this turn is already continuing because a Stop hook blocked. */
  readonly stopHookActive: boolean;
  /** The prompt that opened the turn. */
  readonly prompt: string;
  /** The final answer text. */
  readonly promptResponse: string;
  /** Continuations already spent in this turn, and the per-turn budget. */
  readonly continuations: number;
  readonly continuationBudget: number;
}

/** A turn ended in failure (external `StopFailure`): a safety filter, a provider error, … */
export interface StopFailureEvent {
  readonly error: string;
  readonly finishReason: FinishReason | undefined;
  readonly rawStopReason: string | undefined;
  readonly prompt: string;
}

/** A turn was cancelled (external `Interrupt`). */
export interface InterruptEvent {
  readonly prompt: string;
}

export interface PreCompactEvent {
  readonly trigger: 'manual' | 'auto';
  readonly customInstructions: string | undefined;
}

export interface NotificationEvent {
  /** e.g. `permission_prompt`, `idle_prompt`, `budget_exhausted`. */
  readonly notificationType: string;
  readonly message: string;
  readonly details: unknown;
}
