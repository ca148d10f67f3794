import { describe, expect, it } from 'vitest';
import type { Message } from '../content/blocks.ts';
import {
  decodeHookLLMRequest,
  decodeHookLLMRequestOverride,
  toHookLLMRequest,
} from './llm-request.ts';

const toolCall = {
  type: 'tool_call',
  id: 'call_1',
  name: 'read_file',
  parameters: { path: 'a.txt', nested: { deep: [1, 2] } },
  metadata: { providerId: 'toolu_01' },
} as const;
const toolResponse = {
  type: 'tool_response',
  callId: 'call_1',
  toolName: 'read_file',
  result: { content: 'hello' },
} as const;
const thinking = {
  type: 'thinking',
  thought: 'Let me read the file.',
  signature: 'EqQBCkgIARABGAIiQ',
  encryptedContent: 'gAAAAAB',
} as const;

function request(): { model: string; contents: Message[]; version?: number } {
  return {
    model: 'claude-sonnet',
    contents: [
      { speaker: 'human', blocks: [{ type: 'text', text: 'Read a.txt' }] },
      { speaker: 'ai', blocks: [thinking, toolCall] },
      { speaker: 'tool', blocks: [toolResponse] },
    ],
  };
}

function errorMessage(value: unknown): string {
  const result = decodeHookLLMRequest(value);
  if (result.ok) throw new Error('expected a decode failure');
  return result.error.message;
}

describe('decodeHookLLMRequest', () => {
  it('accepts a v2 request with version 2 or no version', () => {
    expect(decodeHookLLMRequest({ ...request(), version: 2 }).ok).toBe(true);
    expect(decodeHookLLMRequest(request()).ok).toBe(true);
  });

  it('returns the original request, contents, messages and blocks by reference', () => {
    const input = request();
    const result = decodeHookLLMRequest(input);
    if (!result.ok) throw result.error;
    expect(result.value).toBe(input);
    expect(result.value.contents).toBe(input.contents);
    const [, aiMessage, toolMessage] = result.value.contents;
    expect(aiMessage).toBe(input.contents[1]);
    expect(aiMessage?.blocks[0]).toBe(thinking);
    expect(aiMessage?.blocks[1]).toBe(toolCall);
    expect(toolMessage?.blocks[0]).toBe(toolResponse);
    const decodedCall = aiMessage?.blocks[1];
    expect(decodedCall?.type === 'tool_call' && decodedCall.parameters).toBe(toolCall.parameters);
  });

  it('keeps thinking signatures and encrypted content exactly', () => {
    const result = decodeHookLLMRequest(request());
    if (!result.ok) throw result.error;
    expect(result.value.contents[1]?.blocks[0]).toEqual({
      type: 'thinking',
      thought: 'Let me read the file.',
      signature: 'EqQBCkgIARABGAIiQ',
      encryptedContent: 'gAAAAAB',
    });
  });

  it('keeps unknown settings keys (providers take more than the neutral set)', () => {
    const settings = { temperature: 0.2, response_format: { type: 'json_object' } };
    const result = decodeHookLLMRequest({ ...request(), settings });
    if (!result.ok) throw result.error;
    expect(result.value.settings).toBe(settings);
  });

  it('rejects wrongly typed known settings', () => {
    expect(errorMessage({ ...request(), settings: { temperature: 'hot' } })).toMatchInlineSnapshot(`
      "llm_request is invalid:
        $.settings.temperature: expected a number, got a string"
    `);
  });

  it('rejects version 1 naming the version and the migration', () => {
    expect(errorMessage({ ...request(), version: 1 })).toMatchInlineSnapshot(`
      "llm_request is invalid:
        $.version: version 1 is not supported: hookwire speaks the v2 wire (\`version: 2\`); migrate v1 payloads (messages → contents, candidates → content, toolConfig → toolChoice, parts → blocks, role → speaker)"
    `);
  });

  it('rejects any version other than 2, naming it', () => {
    expect(errorMessage({ ...request(), version: 3 })).toContain('version 3 is not supported');
    expect(errorMessage({ ...request(), version: '2' })).toContain('version "2" is not supported');
  });

  it('rejects a message without blocks (review finding)', () => {
    expect(errorMessage({ model: 'm', contents: [{ speaker: 'human' }] })).toMatchInlineSnapshot(`
      "llm_request is invalid:
        $.contents[0].blocks: required field is missing (expected an array)"
    `);
  });

  it("rejects the 'user' speaker suggesting 'human' (review finding)", () => {
    expect(errorMessage({ model: 'm', contents: [{ speaker: 'user', blocks: [] }] }))
      .toMatchInlineSnapshot(`
        "llm_request is invalid:
          $.contents[0].speaker: "user" is not a speaker: use \`human\` (v1 role \`user\`); speakers are human, ai, tool"
      `);
  });

  it("rejects 'model' and 'assistant' speakers suggesting 'ai'", () => {
    for (const speaker of ['model', 'assistant'])
      expect(errorMessage({ model: 'm', contents: [{ speaker, blocks: [] }] })).toContain(
        'use `ai`',
      );
  });

  it('rejects a missing speaker listing the speakers', () => {
    expect(errorMessage({ model: 'm', contents: [{ blocks: [] }] })).toContain(
      '$.contents[0].speaker: required field is missing: one of human, ai, tool',
    );
  });

  it('rejects a v1 request naming every v1 field and its v2 replacement', () => {
    const v1 = {
      model: 'gemini-2.5-pro',
      messages: [{ role: 'user', content: 'hi' }],
      config: { temperature: 1 },
      generationConfig: { topK: 3 },
      toolConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] },
    };
    expect(errorMessage(v1)).toMatchInlineSnapshot(`
      "llm_request is invalid:
        $.messages: \`messages\` is a v1 field; the v2 wire uses \`contents\` (an array of {speaker, blocks} messages)
        $.config: \`config\` is a v1 field; the v2 wire uses \`settings\` (temperature, maxOutputTokens, toolChoice, …)
        $.generationConfig: \`generationConfig\` is a v1 field; the v2 wire uses \`settings\` (temperature, maxOutputTokens, toolChoice, …)
        $.toolConfig: \`toolConfig\` is a v1 field; the v2 wire uses \`toolChoice\` ({mode: "auto" | "required" | "none", allowedToolNames?})"
    `);
  });

  it('rejects v1 messages (role, parts) naming speaker and blocks', () => {
    expect(errorMessage({ model: 'm', contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }))
      .toMatchInlineSnapshot(`
        "llm_request is invalid:
          $.contents[0].role: \`role\` is a v1 field; the v2 wire uses \`speaker\` ("human", "ai" or "tool")
          $.contents[0].parts: \`parts\` is a v1 field; the v2 wire uses \`blocks\` (typed blocks such as {type: "text", text})"
      `);
  });

  it('rejects blocks without a type, of an unknown type, or with a misnamed field', () => {
    const contents = [
      {
        speaker: 'ai',
        blocks: [
          { text: 'untyped' },
          { type: 'functionCall', name: 'x' },
          { type: 'tool_call', id: '1', name: 'read_file', args: {} },
        ],
      },
    ];
    expect(errorMessage({ model: 'm', contents })).toMatchInlineSnapshot(`
      "llm_request is invalid:
        $.contents[0].blocks[2].args: unknown field \`args\`: use \`parameters\` (a tool_call block carries its arguments in \`parameters\`)
        $.contents[0].blocks[0].type: block has no \`type\` (v1 parts had none); expected one of text, tool_call, tool_response, thinking, media, e.g. {"type": "text", "text": "…"}
        $.contents[0].blocks[1].type: "functionCall" is not a block type; expected one of text, tool_call, tool_response, thinking, media"
    `);
  });

  it('rejects a tool_call block without parameters', () => {
    expect(
      errorMessage({
        model: 'm',
        contents: [{ speaker: 'ai', blocks: [{ type: 'tool_call', id: '1', name: 'x' }] }],
      }),
    ).toContain('$.contents[0].blocks[0].parameters: required field is missing');
  });

  it('rejects a request that is not an object, or lacks model and contents', () => {
    expect(errorMessage('request')).toContain('$: expected an object, got a string');
    expect(errorMessage({})).toMatchInlineSnapshot(`
      "llm_request is invalid:
        $.model: required field is missing (expected a string)
        $.contents: required field is missing (expected an array)"
    `);
  });

  it('never throws, whatever the input', () => {
    for (const value of [null, undefined, 42, [], { contents: null }, { contents: [null] }])
      expect(decodeHookLLMRequest(value).ok).toBe(false);
  });
});

describe('decodeHookLLMRequestOverride', () => {
  it('accepts any subset of the envelope, by reference', () => {
    const override = { settings: { temperature: 0 } };
    const result = decodeHookLLMRequestOverride(override);
    expect(result.ok && result.value).toBe(override);
    expect(decodeHookLLMRequestOverride({}).ok).toBe(true);
  });

  it('rejects wrongly typed fields and v1 fields', () => {
    const result = decodeHookLLMRequestOverride({ model: 7, messages: [] });
    expect(result.ok ? [] : result.error.issues).toEqual([
      {
        path: '$.messages',
        message:
          '`messages` is a v1 field; the v2 wire uses `contents` (an array of {speaker, blocks} messages)',
      },
      { path: '$.model', message: 'expected a string, got a number' },
    ]);
  });
});

describe('toHookLLMRequest', () => {
  it('stamps version 2 and passes contents by reference', () => {
    const neutral = request();
    const envelope = toHookLLMRequest(neutral);
    expect(envelope).toEqual({ version: 2, model: 'claude-sonnet', contents: neutral.contents });
    expect(envelope.contents).toBe(neutral.contents);
    expect('tools' in envelope).toBe(false);
  });
});
