import { describe, expect, it } from 'vitest';
import { FINISH_REASONS } from '../content/finish-reason.ts';
import { decodeHookLLMResponse, toHookLLMResponse } from './llm-response.ts';

const toolCall = { type: 'tool_call', id: 'c1', name: 'ls', parameters: { path: '.' } } as const;
const thinking = { type: 'thinking', thought: '', signature: 'sig-1', redacted: true } as const;

function errorMessage(value: unknown): string {
  const result = decodeHookLLMResponse(value);
  if (result.ok) throw new Error('expected a decode failure');
  return result.error.message;
}

describe('decodeHookLLMResponse', () => {
  it('accepts every canonical finish reason and none at all', () => {
    for (const finishReason of FINISH_REASONS)
      expect(
        decodeHookLLMResponse({ content: { speaker: 'ai', blocks: [] }, finishReason }).ok,
      ).toBe(true);
    expect(decodeHookLLMResponse({ version: 2, content: { speaker: 'ai', blocks: [] } }).ok).toBe(
      true,
    );
  });

  it('returns the original response, content and blocks by reference', () => {
    const input = {
      content: { speaker: 'ai', blocks: [thinking, toolCall] },
      finishReason: 'tool_calls',
      rawStopReason: 'tool_use',
      usage: { promptTokens: 10, completionTokens: 3 },
    };
    const result = decodeHookLLMResponse(input);
    if (!result.ok) throw result.error;
    expect(result.value).toBe(input);
    expect(result.value.content).toBe(input.content);
    expect(result.value.content.blocks[0]).toBe(thinking);
    expect(result.value.content.blocks[1]).toBe(toolCall);
    expect(result.value.usage).toBe(input.usage);
  });

  it("rejects the non-canonical 'STOP' listing the canonical values (review finding)", () => {
    expect(errorMessage({ content: { speaker: 'ai', blocks: [] }, finishReason: 'STOP' }))
      .toMatchInlineSnapshot(`
        "llm_response is invalid:
          $.finishReason: "STOP" is not a canonical finish reason: use \`stop\` and keep "STOP" in \`rawStopReason\` (canonical: stop, max_tokens, tool_calls, safety, refusal, error, other)"
      `);
  });

  it('rejects an unknown finish reason pointing at rawStopReason', () => {
    expect(
      errorMessage({ content: { speaker: 'ai', blocks: [] }, finishReason: 'constructor' }),
    ).toContain(
      '"constructor" is not a canonical finish reason; expected one of stop, max_tokens, tool_calls, safety, refusal, error, other',
    );
  });

  it('rejects content without blocks (review finding)', () => {
    expect(errorMessage({ content: { speaker: 'ai' } })).toContain(
      '$.content.blocks: required field is missing (expected an array)',
    );
  });

  it('rejects a missing content', () => {
    expect(errorMessage({ finishReason: 'stop' })).toContain(
      '$.content: required field is missing (expected an object)',
    );
  });

  it('rejects a v1 response naming content and usage', () => {
    const v1 = {
      candidates: [{ content: { role: 'model', parts: ['hi'] }, finishReason: 'STOP' }],
      usageMetadata: { totalTokenCount: 3 },
    };
    expect(errorMessage(v1)).toMatchInlineSnapshot(`
      "llm_response is invalid:
        $.candidates: \`candidates\` is a v1 field; the v2 wire uses \`content\` (one {speaker: "ai", blocks} message)
        $.usageMetadata: \`usageMetadata\` is a v1 field; the v2 wire uses \`usage\` (promptTokens, completionTokens, totalTokens, …)"
    `);
  });

  it('rejects version 1', () => {
    expect(errorMessage({ version: 1, content: { speaker: 'ai', blocks: [] } })).toContain(
      'version 1 is not supported',
    );
  });
});

describe('toHookLLMResponse', () => {
  it('keeps the canonical and raw reasons and leaves id and raw provider data out', () => {
    const content = { speaker: 'ai', blocks: [toolCall] } as const;
    const envelope = toHookLLMResponse({
      content,
      finishReason: 'tool_calls',
      rawStopReason: 'tool_use',
      id: 'msg_1',
      raw: { provider: 'shape' },
    });
    expect(envelope).toEqual({
      version: 2,
      content,
      finishReason: 'tool_calls',
      rawStopReason: 'tool_use',
    });
    expect(envelope.content).toBe(content);
  });
});
