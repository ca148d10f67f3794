/**
 * The AI SDK adapter: `createHookwire` and its pieces. Every export here is public API.
 */
export {
  createHookwire,
  type GenerateTextOptions,
  type Hookwire,
  type HookwireStreamTextResult,
  type StreamTextOptions,
} from './create-hookwire.ts';
export type { HookwireAgent } from './tool-loop-agent.ts';
// The middleware and the tool wrapper need an instance: use `hw.middleware()`, `hw.wrapTools()`.
export { ToolCallDeniedError } from './wrap-tools.ts';
export {
  AI_SDK_METADATA,
  fromAiSdkPrompt,
  systemInstructionOf,
  toAiSdkPrompt,
  toToolResultOutput,
} from './ai-sdk-prompt.ts';
export {
  fromAiSdkCallOptions,
  fromAiSdkToolChoice,
  toAiSdkCallOptions,
  toAiSdkToolChoice,
} from './ai-sdk-request.ts';
export {
  fromAiSdkContent,
  fromAiSdkFinishReason,
  fromAiSdkGenerateResult,
  fromAiSdkUsage,
  toAiSdkContent,
  toAiSdkFinishReason,
  toAiSdkGenerateResult,
  toAiSdkUsage,
} from './ai-sdk-response.ts';
export { fromModelMessages } from './model-messages.ts';
