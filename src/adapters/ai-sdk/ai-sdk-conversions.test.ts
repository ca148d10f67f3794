import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
} from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { applyRequestPatch } from '../../events/request-patch.ts';
import { enforceToolChoice, withToolChoice } from '../../lifecycle/tool-choice.ts';
import { toHookLLMRequest, toHookLLMResponse } from '../../wire/index.ts';
import { fromAiSdkPrompt, systemInstructionOf, toAiSdkPrompt } from './ai-sdk-prompt.ts';
import { fromAiSdkCallOptions, toAiSdkCallOptions } from './ai-sdk-request.ts';
import {
  fromAiSdkContent,
  fromAiSdkGenerateResult,
  toAiSdkContent,
  toAiSdkGenerateResult,
} from './ai-sdk-response.ts';

/** A prompt with every part kind the AI SDK's language-model prompt has. */
const everyPart: LanguageModelV4Prompt = [
  { role: 'system', content: 'You are terse.' },
  { role: 'system', content: 'Answer in English.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in these?' },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' } },
      {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'spec.pdf',
        data: { type: 'data', data: new Uint8Array([1, 2, 3]) },
      },
      {
        type: 'file',
        mediaType: 'image/jpeg',
        data: { type: 'url', url: new URL('https://example.com/cat.jpg') },
      },
      { type: 'file', mediaType: 'text/plain', data: { type: 'text', text: 'notes' } },
      {
        type: 'file',
        mediaType: 'application/pdf',
        data: { type: 'reference', reference: { openai: 'file-123' } },
      },
    ],
    providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
  },
  {
    role: 'assistant',
    content: [
      {
        type: 'reasoning',
        text: 'Look at the files.',
        providerOptions: { anthropic: { signature: 'sig-1' } },
      },
      { type: 'text', text: 'Let me read the notes.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'notes' } },
      {
        type: 'tool-call',
        toolCallId: 'c2',
        toolName: 'web_search',
        input: { q: 'cats' },
        providerExecuted: true,
      },
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'web_search',
        output: { type: 'json', value: { hits: 3 } },
      },
      { type: 'custom', kind: 'openai.compaction' },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'read_file',
        output: { type: 'text', value: 'buy milk' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c3',
        toolName: 'shell',
        output: { type: 'error-text', value: 'exit 1' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c4',
        toolName: 'shell',
        output: { type: 'execution-denied', reason: 'not allowed' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c5',
        toolName: 'api',
        output: { type: 'error-json', value: { status: 500 } },
      },
      {
        type: 'tool-result',
        toolCallId: 'c6',
        toolName: 'screenshot',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: 'screen' },
            { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AAAA' } },
          ],
        },
      },
      { type: 'tool-approval-response', approvalId: 'a1', approved: false, reason: 'later' },
    ],
  },
];

describe('AI SDK prompt ↔ neutral messages', () => {
  it('every part kind survives the round trip exactly', () => {
    const messages = fromAiSdkPrompt(everyPart);
    const system = systemInstructionOf(everyPart);
    expect(system).toBe('You are terse.\n\nAnswer in English.');
    const back = toAiSdkPrompt(messages, system);
    expect(back.slice(1)).toEqual(everyPart.slice(2));
    expect(back[0]).toEqual({ role: 'system', content: 'You are terse.\n\nAnswer in English.' });
  });

  it('maps the parts hooks read onto the neutral blocks', () => {
    const [user, assistant, tool] = fromAiSdkPrompt(everyPart);
    expect(user?.speaker).toBe('human');
    expect(user?.blocks.map((block) => block.type)).toEqual([
      'text',
      'media',
      'media',
      'media',
      'media',
    ]);
    expect(user?.blocks[2]).toMatchObject({
      type: 'media',
      mimeType: 'application/pdf',
      data: 'AQID',
      encoding: 'base64',
    });
    expect(user?.blocks[3]).toMatchObject({ encoding: 'url', data: 'https://example.com/cat.jpg' });
    expect(assistant?.blocks).toMatchObject([
      { type: 'thinking', thought: 'Look at the files.' },
      { type: 'text', text: 'Let me read the notes.' },
      { type: 'tool_call', id: 'c1', name: 'read_file', parameters: { path: 'notes' } },
      { type: 'tool_call', id: 'c2', name: 'web_search' },
      { type: 'tool_response', callId: 'c2', result: { hits: 3 } },
    ]);
    expect(tool?.blocks).toMatchObject([
      { type: 'tool_response', callId: 'c1', result: 'buy milk' },
      { type: 'tool_response', callId: 'c3', error: 'exit 1' },
      { type: 'tool_response', callId: 'c4', error: 'not allowed' },
      { type: 'tool_response', callId: 'c5', error: '{"status":500}' },
      { type: 'tool_response', callId: 'c6' },
    ]);
  });

  it('the neutral messages are valid v2 wire contents (what command hooks read)', () => {
    const request = fromAiSdkCallOptions('gpt-x', { prompt: everyPart });
    const wire = JSON.parse(JSON.stringify(toHookLLMRequest(request))) as {
      contents: unknown[];
    };
    expect(wire.contents).toHaveLength(3);
  });

  it('messages a hook wrote from scratch (no metadata) convert to plain parts', () => {
    const prompt = toAiSdkPrompt(
      [
        { speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] },
        {
          speaker: 'ai',
          blocks: [{ type: 'tool_call', id: 'x', name: 'glob', parameters: { pattern: '*' } }],
        },
        {
          speaker: 'tool',
          blocks: [
            { type: 'tool_response', callId: 'x', toolName: 'glob', result: ['a'] },
            { type: 'text', text: 'hook context' },
          ],
        },
      ],
      undefined,
    );
    expect(prompt).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'x', toolName: 'glob', input: { pattern: '*' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'x',
            toolName: 'glob',
            output: {
              type: 'content',
              value: [
                { type: 'text', text: '["a"]' },
                { type: 'text', text: 'hook context' },
              ],
            },
          },
        ],
      },
    ]);
  });
});

const callOptions: LanguageModelV4CallOptions = {
  prompt: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'List files' }] },
  ],
  temperature: 0.7,
  maxOutputTokens: 100,
  topK: 3,
  seed: 1,
  reasoning: 'low',
  headers: { 'x-trace': '1' },
  providerOptions: { openai: { store: false } },
  tools: [
    {
      type: 'function',
      name: 'glob',
      description: 'Find files',
      inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } },
    },
    {
      type: 'function',
      name: 'shell',
      inputSchema: { type: 'object', properties: { command: { type: 'string' } } },
    },
    { type: 'provider', id: 'openai.web_search', name: 'web_search', args: {} },
  ],
  toolChoice: { type: 'auto' },
};

describe('AI SDK call options ↔ neutral request', () => {
  it('reads the settings, system prompt and tools', () => {
    const request = fromAiSdkCallOptions('gpt-x', callOptions);
    expect(request.model).toBe('gpt-x');
    expect(request.settings).toEqual({
      systemInstruction: 'Be brief.',
      temperature: 0.7,
      maxOutputTokens: 100,
      topK: 3,
      seed: 1,
      toolChoice: { mode: 'auto' },
      reasoning: { effort: 'low' },
      additionalParams: { openai: { store: false } },
    });
    expect(request.tools?.map((tool) => tool.name)).toEqual(['glob', 'shell', 'web_search']);
  });

  it('an unchanged request gives the original options back, the same object', () => {
    const shown = fromAiSdkCallOptions('gpt-x', callOptions);
    expect(toAiSdkCallOptions(callOptions, shown, shown)).toBe(callOptions);
    // A patch that changes nothing the call carries keeps every field's value.
    const same = applyRequestPatch(shown, {});
    expect(toAiSdkCallOptions(callOptions, shown, same)).toEqual(callOptions);
  });

  it('a patch changes exactly what it names; the rest (headers, provider tools) passes through', () => {
    const shown = fromAiSdkCallOptions('gpt-x', callOptions);
    const patched = applyRequestPatch(shown, {
      temperature: 0,
      systemInstruction: 'Be very brief.',
      extraContext: ['The repo is small.'],
    });
    const next = toAiSdkCallOptions(callOptions, shown, patched);
    expect(next.temperature).toBe(0);
    expect(next.headers).toBe(callOptions.headers);
    expect(next.tools).toBe(callOptions.tools);
    expect(next.prompt).toEqual([
      { role: 'system', content: 'Be very brief.' },
      { role: 'user', content: [{ type: 'text', text: 'List files' }] },
      { role: 'user', content: [{ type: 'text', text: 'The repo is small.' }] },
    ]);
  });

  it('an enforced tool choice filters the tools sent and sets the call’s tool choice', () => {
    const shown = fromAiSdkCallOptions('gpt-x', callOptions);
    const none = toAiSdkCallOptions(
      callOptions,
      shown,
      enforceToolChoice(withToolChoice(shown, { mode: 'none' })),
    );
    expect(none.tools).toBeUndefined();
    expect(none.toolChoice).toEqual({ type: 'none' });
    const some = toAiSdkCallOptions(
      callOptions,
      shown,
      enforceToolChoice(
        withToolChoice(shown, { mode: 'auto', allowedToolNames: ['glob', 'web_search'] }),
      ),
    );
    expect(some.tools).toEqual([callOptions.tools?.[0], callOptions.tools?.[2]]);
    expect(some.toolChoice).toEqual({ type: 'auto' });
  });
});

const output: LanguageModelV4Content[] = [
  { type: 'reasoning', text: 'thinking', providerMetadata: { anthropic: { signature: 's' } } },
  { type: 'text', text: 'Here you go.' },
  { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' },
  { type: 'tool-call', toolCallId: 't1', toolName: 'glob', input: '{"pattern":"*.ts"}' },
  { type: 'tool-call', toolCallId: 't2', toolName: 'shell', input: 'not json' },
  { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([9]) } },
  { type: 'tool-result', toolCallId: 't3', toolName: 'web_search', result: { ok: true } },
];

describe('AI SDK output ↔ neutral response', () => {
  it('every content part survives the round trip exactly', () => {
    expect(toAiSdkContent(fromAiSdkContent(output))).toEqual(output);
  });

  it('tool-call input strings decode to parameters (and a non-JSON input stays a string)', () => {
    expect(fromAiSdkContent(output).blocks).toMatchObject([
      { type: 'thinking', thought: 'thinking' },
      { type: 'text', text: 'Here you go.' },
      { type: 'tool_call', id: 't1', parameters: { pattern: '*.ts' } },
      { type: 'tool_call', id: 't2', parameters: 'not json' },
      { type: 'media', mimeType: 'image/png', data: 'CQ==' },
      { type: 'tool_response', callId: 't3', result: { ok: true } },
    ]);
  });

  it('a generate result round-trips with its finish reason and usage, as v2 llm_response', () => {
    const result: LanguageModelV4GenerateResult = {
      content: [{ type: 'text', text: 'hi' }],
      finishReason: { unified: 'length', raw: 'max_tokens' },
      usage: {
        inputTokens: { total: 10, noCache: 8, cacheRead: 2, cacheWrite: undefined },
        outputTokens: { total: 5, text: 3, reasoning: 2 },
      },
      warnings: [],
      response: { id: 'resp-1' },
    };
    const neutral = fromAiSdkGenerateResult(result);
    expect(neutral).toMatchObject({
      finishReason: 'max_tokens',
      rawStopReason: 'max_tokens',
      usage: {
        promptTokens: 10,
        completionTokens: 5,
        totalTokens: 15,
        cachedTokens: 2,
        reasoningTokens: 2,
      },
      id: 'resp-1',
    });
    expect(toHookLLMResponse(neutral)).toMatchObject({ version: 2, finishReason: 'max_tokens' });
    const back = toAiSdkGenerateResult(neutral, result);
    expect(back.content).toEqual(result.content);
    expect(back.finishReason).toEqual(result.finishReason);
    expect(back.usage.inputTokens).toEqual(result.usage.inputTokens);
    expect(back.usage.outputTokens).toEqual(result.usage.outputTokens);
  });
});
