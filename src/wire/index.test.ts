import { describe, expect, it } from 'vitest';
import { HookwireError } from '../content/hookwire-error.ts';
import * as wire from './index.ts';

describe('the wire surface', () => {
  it('exports exactly the public names (every export is public API)', () => {
    expect(Object.keys(wire).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_MAX_JSON_DEPTH",
        "HOOK_JSON_LIMITS",
        "RAW_HOOK_DECISIONS",
        "V1_FIELD_REPLACEMENTS",
        "WIRE_VERSION",
        "WireDecodeError",
        "aggregateToolChoice",
        "contentBlockSchema",
        "decodeHookLLMRequest",
        "decodeHookLLMRequestOverride",
        "decodeHookLLMResponse",
        "decodeToolChoice",
        "encodeHookPayload",
        "finishReasonSchema",
        "generationSettingsSchema",
        "guardStdoutProblem",
        "hookLLMRequestInputSchema",
        "hookLLMRequestOverrideSchema",
        "hookLLMRequestSchema",
        "hookLLMResponseInputSchema",
        "hookLLMResponseSchema",
        "hookOutputCommonShape",
        "hookToolSelectionRequestInputSchema",
        "jsonPath",
        "jsonTextDepthExceeds",
        "jsonValueDepthExceeds",
        "mediaBlockSchema",
        "mergeHookLLMRequest",
        "mergeLLMRequestOverrides",
        "messageSchema",
        "normalizeDecision",
        "parseHookStdout",
        "parseJsonText",
        "providerMetadataSchema",
        "quoteStart",
        "reasoningSettingsSchema",
        "speakerSchema",
        "textBlockSchema",
        "thinkingBlockSchema",
        "toHookLLMRequest",
        "toHookLLMResponse",
        "toolCallBlockSchema",
        "toolChoiceSchema",
        "toolDeclarationSchema",
        "toolResponseBlockSchema",
        "usageSchema",
        "wireVersionSchema",
      ]
    `);
  });
});

describe('WireDecodeError', () => {
  it('is a HookwireError with a stable code, the subject and every issue', () => {
    const result = wire.decodeHookLLMRequest({ model: 1, contents: [] }, 'BeforeModel llm_request');
    if (result.ok) throw new Error('expected a decode failure');
    expect(HookwireError.isInstance(result.error)).toBe(true);
    expect(result.error).toBeInstanceOf(wire.WireDecodeError);
    expect(result.error.name).toBe('WireDecodeError');
    expect(result.error.code).toBe('wire_decode_failed');
    expect(result.error.subject).toBe('BeforeModel llm_request');
    expect(result.error.issues).toEqual([
      { path: '$.model', message: 'expected a string, got a number' },
    ]);
  });
});

describe('jsonPath', () => {
  it('renders identifiers with dots, indexes in brackets and other keys quoted', () => {
    expect(wire.jsonPath([])).toBe('$');
    expect(wire.jsonPath(['contents', 0, 'blocks', 12, 'type'])).toBe(
      '$.contents[0].blocks[12].type',
    );
    expect(wire.jsonPath(['settings', 'x-vendor key'])).toBe('$.settings["x-vendor key"]');
  });
});
