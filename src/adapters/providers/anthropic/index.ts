export { createAnthropicModel, type AnthropicModelOptions } from './anthropic-model.ts';
export { ANTHROPIC_FINISH_REASONS } from './anthropic-finish-reasons.ts';
export {
  toAnthropicRequest,
  toAnthropicMessages,
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  ANTHROPIC_EFFORT_BUDGETS,
  type AnthropicRequestBody,
} from './to-anthropic-request.ts';
export { fromAnthropicMessage, fromAnthropicUsage } from './from-anthropic-response.ts';
export { AnthropicStreamAssembler } from './anthropic-stream-assembler.ts';
export { toAnthropicModelError } from './anthropic-error.ts';
