/**
 * The hook wire: v2 envelopes over neutral content, their decoders (by reference, never
 * throwing), merge and tool-choice aggregation rules, the fields every hook output shares
 * and the zod schemas of the envelopes. Each event's own payload and output live in `src/events/`. Every export here is public API.
 */
export {
  WireDecodeError,
  jsonPath,
  type WireDecodeResult,
  type WireIssue,
} from './wire-decode-error.ts';
export { V1_FIELD_REPLACEMENTS, type FieldReplacement } from './field-hints.ts';
export { WIRE_VERSION, wireVersionSchema } from './wire-version.ts';
export {
  contentBlockSchema,
  finishReasonSchema,
  mediaBlockSchema,
  messageSchema,
  providerMetadataSchema,
  speakerSchema,
  textBlockSchema,
  thinkingBlockSchema,
  toolCallBlockSchema,
  toolDeclarationSchema,
  toolResponseBlockSchema,
  usageSchema,
} from './content-schemas.ts';
export { generationSettingsSchema, reasoningSettingsSchema } from './generation-settings-schema.ts';
export { aggregateToolChoice, decodeToolChoice, toolChoiceSchema } from './tool-choice.ts';
export {
  decodeHookLLMRequest,
  decodeHookLLMRequestOverride,
  hookLLMRequestInputSchema,
  hookLLMRequestOverrideSchema,
  hookLLMRequestSchema,
  hookToolSelectionRequestInputSchema,
  toHookLLMRequest,
  type DecodedHookLLMRequest,
  type HookLLMRequest,
  type HookLLMRequestOverride,
} from './llm-request.ts';
export {
  decodeHookLLMResponse,
  hookLLMResponseInputSchema,
  hookLLMResponseSchema,
  toHookLLMResponse,
  type HookLLMResponse,
  type HookLLMResponseOverride,
} from './llm-response.ts';
export { mergeHookLLMRequest, mergeLLMRequestOverrides } from './merge-request.ts';
export {
  RAW_HOOK_DECISIONS,
  hookOutputCommonShape,
  normalizeDecision,
  type HookDecision,
  type RawHookDecision,
} from './hook-decision.ts';
export {
  HOOK_JSON_LIMITS,
  encodeHookPayload,
  guardStdoutProblem,
  parseHookStdout,
  quoteStart,
  type HookPayloadEncoding,
  type HookStdout,
} from './hook-stdout.ts';
export {
  DEFAULT_MAX_JSON_DEPTH,
  jsonTextDepthExceeds,
  jsonValueDepthExceeds,
  parseJsonText,
  type JsonDuplicateKey,
  type JsonPathSegments,
  type JsonTextError,
  type JsonTextPosition,
  type JsonTextResult,
  type ParseJsonTextOptions,
} from './json-text.ts';
