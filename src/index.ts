/**
 * hookwire's public surface. Every export here is public API: names are listed one by one so the
 * surface is reviewed, never grown by accident (`test/public-surface.test.ts` pins it).
 * Provider adapters (which pull in the official SDKs) live in `hookwire/providers`; test doubles
 * (the scripted model) in `hookwire/testing`.
 */

// content: neutral messages, finish reasons, the model interface, errors
export {
  FINISH_REASONS,
  FinishReasonMap,
  HookwireError,
  ModelError,
  SPEAKERS,
  isFinishReason,
  isTruncatedOutput,
  message,
  reconcileFinishReason,
  text,
  textOf,
  toolCallsOf,
  type BlockType,
  type ContentBlock,
  type FinishInfo,
  type FinishReason,
  type GenerationSettings,
  type LanguageModel,
  type MediaBlock,
  type Message,
  type ModelCallOptions,
  type ModelErrorKind,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
  type ProviderMetadata,
  type ReasoningSettings,
  type Speaker,
  type TextBlock,
  type ThinkingBlock,
  type ToolCallBlock,
  type ToolChoice,
  type ToolDeclaration,
  type ToolResponseBlock,
  type Usage,
} from './content/index.ts';

// wire: the v2 hook envelopes, decoders, merge rules
export {
  WireDecodeError,
  aggregateToolChoice,
  decodeHookLLMRequest,
  decodeHookLLMRequestOverride,
  decodeHookLLMResponse,
  decodeToolChoice,
  mergeHookLLMRequest,
  mergeLLMRequestOverrides,
  parseHookStdout,
  toHookLLMRequest,
  toHookLLMResponse,
  type HookLLMRequest,
  type HookLLMRequestOverride,
  type HookLLMResponse,
  type HookStdout,
  type WireDecodeResult,
} from './wire/index.ts';

// events: the catalogue's external names and each event's payload and output
export {
  HOOK_EVENT_ALIASES,
  HOOK_EVENT_NAMES,
  buildHookInput,
  canonicalEventName,
  decodeHookOutput,
  type HookEventAlias,
  type HookEventName,
  type HookInput,
  type HookOutput,
  type RegisteredEventName,
} from './events/index.ts';

// hooks: the typed in-process interface, actions, HookStack, context, request patches
export {
  CompletionCallAction,
  ContextAction,
  HookError,
  HookStack,
  InvalidToolCallAction,
  ModelOutputAction,
  ModelSelectionAction,
  ModelTurnAction,
  ObservationAction,
  PromptSubmitAction,
  RunHookContext,
  Scratchpad,
  StopAction,
  ToolCallAction,
  ToolResultAction,
  ToolSelectionAction,
  applyRequestPatch,
  createHookContext,
  mergeRequestPatches,
  scratchpadKey,
  type AgentHook,
  type Awaitable,
  type CompletionCallEvent,
  type CompletionResponseEvent,
  type HookContext,
  type HookContextOptions,
  type HookEventKind,
  type HookReport,
  type HookStackOptions,
  type InterruptEvent,
  type InvalidToolCallEvent,
  type ModelOutputEvent,
  type ModelSelectionEvent,
  type ModelTurnFinishedEvent,
  type NotificationEvent,
  type PreCompactEvent,
  type PromptSubmitEvent,
  type ReasoningDeltaEvent,
  type RequestPatch,
  type ScratchpadKey,
  type SessionEndEvent,
  type SessionInfo,
  type SessionStartEvent,
  type StopEvent,
  type StopFailureEvent,
  type StreamFinishEvent,
  type TextDeltaEvent,
  type ToolCallDeltaEvent,
  type ToolCallEvent,
  type ToolCallResolution,
  type ToolFailureEvent,
  type ToolResultEvent,
  type ToolSelectionEvent,
} from './hooks/index.ts';

// command hooks: settings, the supervised runner, the adapter into AgentHook
export {
  SettingsError,
  createCommandHooks,
  createCommandRunner,
  fireCommandHooks,
  listEffectiveHooks,
  loadSettings,
  type CommandHookConfig,
  type CommandHookOptions,
  type CommandResult,
  type CommandRunner,
  type EffectiveSettings,
  type FireResult,
  type HookGroupConfig,
  type HookRunRecord,
  type HookRunStatus,
  type RunCommandOptions,
  type SettingsIssue,
} from './hook-kinds/command/index.ts';

// the hook session every run and embedding opens: settings layers + in-process hooks → one stack
export {
  loadHookSettings,
  openHookSession,
  type HookSession,
  type HookSessionOptions,
  type HookSettingsOptions,
} from './hook-kinds/hook-session.ts';

// loop: agents, sessions, runs, tools, transcripts
export {
  LoopError,
  Session,
  ToolRegistry,
  createAgent,
  readTranscript,
  type Agent,
  type AgentOptions,
  type OpenSessionOptions,
  type RunEvent,
  type RunHandle,
  type RunOptions,
  type RunResult,
  type RunStatus,
  type Tool,
  type ToolExecutionContext,
} from './loop/index.ts';

// built-in tools (no SDKs involved)
export { builtinTools } from './adapters/tools/index.ts';
