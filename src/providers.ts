/**
 * `hookwire/providers`: model adapters over the official SDKs. Every export here is public API.
 * Kept apart from `hookwire` so that code using only the engine never loads an SDK.
 */
export {
  createOpenAIChatModel,
  createOpenAIResponsesModel,
  type OpenAIModelOptions,
  type OpenAIResponsesModelOptions,
} from './adapters/providers/openai/index.ts';
export { createAnthropicModel } from './adapters/providers/anthropic/index.ts';
export { createGoogleModel } from './adapters/providers/google/index.ts';
export {
  createModelFromSpec,
  MODEL_PROVIDERS,
  ModelSpecError,
} from './adapters/providers/registry.ts';
