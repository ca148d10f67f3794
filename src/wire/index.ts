/**
 * The hook wire: v2 envelopes over neutral content, their decoders (by reference, never
 * throwing), merge and tool-choice aggregation rules, hook stdin/stdout payloads and the zod
 * schemas the committed JSON Schemas are generated from. Every export here is public API.
 */
export {
  HOOK_EVENT_ALIASES,
  HOOK_EVENT_NAMES,
  MATCHER_TARGET,
  canonicalEventName,
  type HookEventAlias,
  type HookEventName,
  type RegisteredEventName,
} from './event-names.ts';
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
  PERMISSION_DECISIONS,
  RAW_HOOK_DECISIONS,
  decodeHookOutput,
  hookOutputSchema,
  hookOutputSchemas,
  normalizeDecision,
  type CanonicalEventOf,
  type HookDecision,
  type HookOutput,
  type HookSpecificOutputMap,
  type PermissionDecision,
  type RawHookDecision,
} from './hook-output.ts';
export { parseHookStdout, type HookStdout } from './hook-stdout.ts';
export {
  PRE_COMPACT_TRIGGERS,
  SESSION_END_REASONS,
  SESSION_START_SOURCES,
  buildHookInput,
  hookInputSchemas,
  type AnyHookInput,
  type HookInput,
  type HookInputBase,
  type HookInputContext,
  type HookInputFieldsMap,
  type McpContext,
} from './hook-input.ts';
export { generateJsonSchemas } from './json-schemas.ts';
