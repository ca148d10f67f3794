/**
 * OpenAI provider adapters: Chat Completions (also any OpenAI-compatible server) and Responses.
 * Every export is public API.
 */
export { createOpenAIChatModel } from './chat-model.ts';
export type { OpenAIChatModelOptions } from './chat-model.ts';
export { createOpenAIResponsesModel } from './responses-model.ts';
export type { OpenAIResponsesModelOptions } from './responses-model.ts';
export type { OpenAIModelOptions } from './client.ts';
export {
  OPENAI_CHAT_FINISH_REASONS,
  OPENAI_RESPONSES_FINISH_REASONS,
  chatFinishInfo,
  responsesFinishInfo,
} from './finish-reasons.ts';
export { buildChatRequest } from './chat-request.ts';
export { buildResponsesRequest } from './responses-request.ts';
