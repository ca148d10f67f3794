export { createGoogleModel, GEMINI_API_VERSION, type GoogleModelOptions } from './google-model.ts';
export { GEMINI_FINISH_REASONS, blockedPromptFinish } from './gemini-finish-reasons.ts';
export {
  toGeminiRequest,
  toGeminiContents,
  googleMetadataOf,
  type GoogleBlockMetadata,
  type GeminiRequest,
} from './to-gemini-request.ts';
export {
  GeminiResponseAssembler,
  fromGeminiResponse,
  fromGeminiUsage,
} from './gemini-response-assembler.ts';
export { toGeminiModelError } from './gemini-error.ts';
