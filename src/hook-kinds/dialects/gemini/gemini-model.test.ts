import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest, ModelResponse } from '../../../content/index.ts';
import type { CombinedOutcome } from '../../../events/index.ts';
import { toHookLLMRequest, toHookLLMResponse } from '../../../wire/index.ts';
import { alignGeminiOutcome, geminiModelAnswer, geminiModelPayload } from './gemini-model.ts';
import { GEMINI_FINISH_REASONS } from '../../../content/gemini-finish-reasons.ts';

const human = (text: string): Message => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const call: Message = {
  speaker: 'ai',
  blocks: [
    { type: 'text', text: 'Looking.' },
    { type: 'tool_call', id: 'c1', name: 'shell', parameters: { command: 'ls' } },
  ],
};
const result: Message = {
  speaker: 'tool',
  blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'shell', result: 'a.txt' }],
};
const request: ModelRequest = {
  model: 'm',
  contents: [human('first'), call, result, human('second')],
  tools: [
    { name: 'shell', parameters: {} },
    { name: 'read_file', parameters: {} },
  ],
  settings: { temperature: 0.7, systemInstruction: 'Be brief.' },
};
const fields = { llm_request: toHookLLMRequest(request) };

const NONE: CombinedOutcome = {
  denied: false,
  denyReasons: [],
  stopped: false,
  stopReasons: [],
  systemMessages: [],
  additionalContexts: [],
  suppressOutput: false,
  clearContext: false,
  warnings: [],
};

/** What a Gemini hook answering `llm_request` leaves after steps 2 and 3. */
function beforeModel(llmRequest: Record<string, unknown>) {
  const answer = geminiModelAnswer('BeforeModel', {
    hookSpecificOutput: { llm_request: llmRequest },
  }) as { hookSpecificOutput: { llm_request: NonNullable<CombinedOutcome['llmRequest']> } };
  const combined = { ...NONE, llmRequest: answer.hookSpecificOutput.llm_request };
  return alignGeminiOutcome('BeforeModel', fields, combined).llmRequest;
}

const sent = (geminiModelPayload(fields)['llm_request'] as { messages: object[] }).messages;

describe('Gemini model hooks: payload', () => {
  it("is Gemini's LLMRequest: text-only messages (system first), config, toolConfig in Gemini names", () => {
    expect(geminiModelPayload(fields)['llm_request']).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'first' },
        { role: 'model', content: 'Looking.' },
        { role: 'user', content: 'second' },
      ],
      config: { temperature: 0.7 },
      toolConfig: { mode: 'AUTO', allowedFunctionNames: ['run_shell_command', 'read_file'] },
    });
  });

  it("is Gemini's LLMResponse: candidates with text parts, finishReason and usageMetadata", () => {
    const response: ModelResponse = {
      content: call,
      finishReason: 'max_tokens',
      usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 },
    };
    expect(
      geminiModelPayload({ ...fields, llm_response: toHookLLMResponse(response) })['llm_response'],
    ).toEqual({
      candidates: [{ content: { role: 'model', parts: ['Looking.'] }, finishReason: 'MAX_TOKENS' }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
    });
  });
});

describe('Gemini model hooks: BeforeModel answers laid over the request', () => {
  it('an echo of the request changes nothing', () => {
    expect(
      beforeModel({ ...(geminiModelPayload(fields)['llm_request'] as object) }),
    ).toBeUndefined();
  });

  it('an inserted message goes where the hook put it; everything else is kept as sent', () => {
    const messages = [...sent.slice(0, 2), { role: 'user', content: 'note' }, ...sent.slice(2)];
    expect(beforeModel({ messages })).toEqual({
      contents: [human('first'), human('note'), call, result, human('second')],
    });
  });

  it('a changed message keeps its tool calls; a removed one loses only its text; settings and toolConfig apply', () => {
    const messages = [
      { role: 'user', content: 'first!' },
      { role: 'model', content: 'Let me look.' },
    ];
    expect(
      beforeModel({
        messages: [{ role: 'system', content: 'Be very brief.' }, ...messages],
        config: { temperature: 0.7, topK: 3 },
        toolConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] },
      }),
    ).toEqual({
      contents: [
        human('first!'),
        {
          speaker: 'ai',
          blocks: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_call', id: 'c1', name: 'shell', parameters: { command: 'ls' } },
          ],
        },
        result,
      ],
      settings: {
        systemInstruction: 'Be very brief.',
        topK: 3,
        toolChoice: { mode: 'required', allowedToolNames: ['read_file'] },
      },
    });
  });

  it('a model change alone is a model change; content arrays of parts are read as text', () => {
    expect(beforeModel({ model: 'gemini-2.5-flash' })).toEqual({ model: 'gemini-2.5-flash' });
    expect(
      beforeModel({
        messages: [...sent, { role: 'user', content: [{ text: 'a' }, { text: 'b' }] }],
      }),
    ).toEqual({ contents: [...request.contents, human('ab')] });
  });

  it('a synthetic llm_response becomes a v2 response', () => {
    expect(
      geminiModelAnswer('BeforeModel', {
        hookSpecificOutput: {
          llm_response: {
            candidates: [
              { content: { role: 'model', parts: ['cached answer'] }, finishReason: 'STOP' },
            ],
          },
        },
      }),
    ).toEqual({
      hookSpecificOutput: {
        llm_response: {
          content: { speaker: 'ai', blocks: [{ type: 'text', text: 'cached answer' }] },
          finishReason: 'stop',
          rawStopReason: 'STOP',
        },
      },
    });
  });
});

describe('Gemini model hooks: finish reasons read as the Google provider reads them', () => {
  it.each([
    ['STOP', 'stop'],
    ['MAX_TOKENS', 'max_tokens'],
    ['CONTINUATION', 'max_tokens'],
    ['IMAGE_SAFETY', 'safety'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
    ['LANGUAGE', 'other'],
    ['A_FUTURE_REASON', 'other'],
  ])('%s → %s, with the raw word kept', (raw, canonical) => {
    const answer = geminiModelAnswer('BeforeModel', {
      hookSpecificOutput: {
        llm_response: { candidates: [{ content: { parts: ['x'] }, finishReason: raw }] },
      },
    }) as { hookSpecificOutput: { llm_response: Record<string, unknown> } };
    expect(answer.hookSpecificOutput.llm_response).toMatchObject({
      finishReason: canonical,
      rawStopReason: raw,
    });
    expect(GEMINI_FINISH_REASONS.map(raw)).toEqual({
      finishReason: canonical,
      rawStopReason: raw,
    });
  });
});

describe('Gemini model hooks: AfterModel and BeforeToolSelection answers', () => {
  const response: ModelResponse = { content: call, finishReason: 'tool_calls' };
  const after = (llmResponse: Record<string, unknown>) => {
    const answer = geminiModelAnswer('AfterModel', {
      hookSpecificOutput: { llm_response: llmResponse },
    }) as { hookSpecificOutput: { llm_response: NonNullable<CombinedOutcome['llmResponse']> } };
    return alignGeminiOutcome(
      'AfterModel',
      { ...fields, llm_response: toHookLLMResponse(response) },
      { ...NONE, llmResponse: answer.hookSpecificOutput.llm_response },
    ).llmResponse;
  };

  it('an echo is no replacement; new text keeps the tool call and the finish reason', () => {
    const echoed = {
      candidates: [{ content: { role: 'model', parts: ['Looking.'] }, finishReason: 'STOP' }],
    };
    expect(after(echoed)).toBeUndefined();
    expect(
      after({
        candidates: [{ content: { role: 'model', parts: ['[redacted]'] }, finishReason: 'STOP' }],
      }),
    ).toEqual({
      content: {
        speaker: 'ai',
        blocks: [
          { type: 'text', text: '[redacted]' },
          { type: 'tool_call', id: 'c1', name: 'shell', parameters: { command: 'ls' } },
        ],
      },
    });
    expect(
      after({
        candidates: [{ content: { role: 'model', parts: ['Looking.'] }, finishReason: 'SAFETY' }],
      }),
    ).toMatchObject({ finishReason: 'safety', rawStopReason: 'SAFETY' });
  });

  it('BeforeToolSelection toolConfig becomes toolChoice in hookwire names', () => {
    expect(
      geminiModelAnswer('BeforeToolSelection', {
        hookSpecificOutput: {
          toolConfig: { mode: 'AUTO', allowedFunctionNames: ['Run_Shell_Command', 'Read_File'] },
        },
      }),
    ).toEqual({
      hookSpecificOutput: {
        toolChoice: { mode: 'auto', allowedToolNames: ['shell', 'Read_File'] },
      },
    });
    expect(
      geminiModelAnswer('BeforeToolSelection', {
        hookSpecificOutput: { toolConfig: { mode: 'NONE' } },
      }),
    ).toEqual({ hookSpecificOutput: { toolChoice: { mode: 'none' } } });
  });
});
