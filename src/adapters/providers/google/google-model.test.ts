import { readFileSync } from 'node:fs';
import { FinishReason } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModel, ModelRequest, ModelStreamPart } from '../../../content/index.ts';
import { failureOf, surfaces } from '../../../../test/fixtures/anthropic/model-surfaces.ts';
import {
  dataEvent,
  startRecordingServer,
  type RecordedRequest,
  type RecordingServer,
  type Reply,
} from '../../../../test/support/recording-server.ts';
import { createGoogleModel, GEMINI_FINISH_REASONS } from './index.ts';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../../test/fixtures/google/${name}`, import.meta.url), 'utf8');

interface GeminiJson {
  candidates?: {
    content?: { role: string; parts: Record<string, unknown>[] };
    finishReason?: string;
    index?: number;
  }[];
  promptFeedback?: { blockReason: string };
  usageMetadata?: Record<string, number>;
  responseId?: string;
}

const isStreaming = (request: RecordedRequest): boolean =>
  request.url.includes(':streamGenerateContent');

/**
 * The `alt=sse` chunks for a complete response: one chunk per part (a text part split in two,
 * its signature on the second half), the finish reason and the final usage on the last chunk.
 */
function chunksOf(response: GeminiJson): string[] {
  const candidate = response.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const chunks: GeminiJson[] = [];
  for (const part of parts) {
    const text = part['text'];
    if (typeof text === 'string' && text.length > 1) {
      const middle = Math.ceil(text.length / 2);
      const { thoughtSignature, ...rest } = part;
      chunks.push({
        candidates: [
          { content: { role: 'model', parts: [{ ...rest, text: text.slice(0, middle) }] } },
        ],
      });
      chunks.push({
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                {
                  ...rest,
                  text: text.slice(middle),
                  ...(thoughtSignature === undefined ? {} : { thoughtSignature }),
                },
              ],
            },
          },
        ],
      });
    } else {
      chunks.push({ candidates: [{ content: { role: 'model', parts: [part] } }] });
    }
  }
  const last: GeminiJson = {
    ...(candidate === undefined
      ? {}
      : {
          candidates: [
            {
              ...(candidate.finishReason === undefined
                ? {}
                : { finishReason: candidate.finishReason }),
            },
          ],
        }),
    ...(response.promptFeedback === undefined ? {} : { promptFeedback: response.promptFeedback }),
    ...(response.usageMetadata === undefined ? {} : { usageMetadata: response.usageMetadata }),
  };
  chunks.push(last);
  return chunks.map((chunk) =>
    dataEvent({
      ...chunk,
      ...(response.responseId === undefined ? {} : { responseId: response.responseId }),
    }),
  );
}

const answerWith =
  (response: GeminiJson) =>
  (request: RecordedRequest): Reply =>
    isStreaming(request) ? { frames: chunksOf(response) } : { json: response };

const textResponse = (text: string, finishReason?: string): GeminiJson => ({
  candidates: [
    {
      content: { role: 'model', parts: [{ text }] },
      ...(finishReason === undefined ? {} : { finishReason }),
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 },
  responseId: 'resp_text',
});

const hello: ModelRequest = {
  model: 'gemini-test',
  contents: [{ speaker: 'human', blocks: [{ type: 'text', text: 'Hello' }] }],
};

/** Every `FinishReason` the Gemini API documents, with the canonical reason it must map to. */
const documentedFinishReasons = [
  ['FINISH_REASON_UNSPECIFIED', 'other'],
  ['STOP', 'stop'],
  ['MAX_TOKENS', 'max_tokens'],
  ['SAFETY', 'safety'],
  ['RECITATION', 'safety'],
  ['LANGUAGE', 'other'],
  ['OTHER', 'other'],
  ['BLOCKLIST', 'safety'],
  ['PROHIBITED_CONTENT', 'safety'],
  ['SPII', 'safety'],
  ['MALFORMED_FUNCTION_CALL', 'error'],
  ['IMAGE_SAFETY', 'safety'],
  ['IMAGE_PROHIBITED_CONTENT', 'safety'],
  ['IMAGE_OTHER', 'other'],
  ['NO_IMAGE', 'other'],
  ['IMAGE_RECITATION', 'safety'],
  ['UNEXPECTED_TOOL_CALL', 'error'],
  ['TOO_MANY_TOOL_CALLS', 'error'],
  ['MISSING_THOUGHT_SIGNATURE', 'error'],
  ['MALFORMED_RESPONSE', 'error'],
  ['ESCALATION', 'safety'],
  ['PUP_LIMITED_DISABLED', 'safety'],
  ['CONTINUATION', 'max_tokens'],
  ['MODEL_ARMOR', 'safety'],
] as const;

it('maps exactly the finish reasons of the SDK enum', () => {
  expect([...GEMINI_FINISH_REASONS.rawValues].sort()).toEqual(Object.values(FinishReason).sort());
  expect([...GEMINI_FINISH_REASONS.rawValues].sort()).toEqual(
    documentedFinishReasons.map(([raw]) => raw).sort(),
  );
});

let server: RecordingServer;
let model: LanguageModel;

beforeAll(async () => {
  server = await startRecordingServer();
  model = createGoogleModel({
    model: 'gemini-test',
    apiKey: 'gem-key',
    baseURL: server.url,
    maxRetries: 0,
  });
});
afterAll(async () => {
  await server.close();
});

const lastRequest = (): RecordedRequest => server.requests.at(-1)!;
const lastBody = (): Record<string, unknown> => lastRequest().body as Record<string, unknown>;

describe.each(surfaces)('Gemini adapter ($name)', (surface) => {
  it('returns text, usage, the response id and a stop finish, calling the v1beta endpoint with the key', async () => {
    server.reply(answerWith(textResponse('Hi there!', 'STOP')));
    const { response, parts } = await surface.call(model, hello);
    expect(response.content).toEqual({
      speaker: 'ai',
      blocks: [{ type: 'text', text: 'Hi there!' }],
    });
    expect(response).toMatchObject({
      finishReason: 'stop',
      rawStopReason: 'STOP',
      id: 'resp_text',
    });
    expect(response.usage).toEqual({ promptTokens: 4, completionTokens: 2, totalTokens: 6 });
    expect(lastRequest().url).toBe(
      surface.name === 'stream'
        ? '/v1beta/models/gemini-test:streamGenerateContent?alt=sse'
        : '/v1beta/models/gemini-test:generateContent',
    );
    expect(lastRequest().headers['x-goog-api-key']).toBe('gem-key');
    // The SDK always sends a generationConfig, empty when no setting is given.
    expect(lastBody()).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
      generationConfig: {},
    });
    if (surface.name === 'stream') {
      expect(parts).toEqual([
        { type: 'text-delta', text: 'Hi th' },
        { type: 'text-delta', text: 'ere!' },
      ]);
    }
  });

  it('assembles thoughts with signatures, text and function calls (signed, and without id) from the documented fixture', async () => {
    server.reply((request) =>
      isStreaming(request)
        ? { frames: [fixture('thoughts-tools.sse')] }
        : { json: JSON.parse(fixture('thoughts-tools.json')) as unknown },
    );
    const { response, parts } = await surface.call(model, hello);
    expect(response.content.blocks).toEqual([
      { type: 'thinking', thought: 'Thinking about cities.', signature: 'c2lnVGhvdWdodA==' },
      { type: 'text', text: 'Checking both.' },
      {
        type: 'tool_call',
        id: 'fc_paris',
        name: 'get_weather',
        parameters: { city: 'Paris' },
        metadata: { google: { thoughtSignature: 'c2lnQ2FsbA==' } },
      },
      {
        type: 'tool_call',
        id: 'call_1',
        name: 'get_weather',
        parameters: { city: 'Oslo' },
        metadata: { google: { syntheticId: true } },
      },
    ]);
    // Gemini says STOP on a response with function calls: it reads as tool_calls.
    expect(response).toMatchObject({
      finishReason: 'tool_calls',
      rawStopReason: 'STOP',
      id: 'resp_gem_1',
    });
    expect(response.usage).toEqual({
      promptTokens: 100,
      completionTokens: 35,
      totalTokens: 135,
      cachedTokens: 60,
      reasoningTokens: 15,
    });
    if (surface.name === 'stream') {
      expect(parts).toEqual([
        { type: 'reasoning-delta', text: 'Thinking about ' },
        { type: 'reasoning-delta', text: 'cities.', signature: 'c2lnVGhvdWdodA==' },
        { type: 'text-delta', text: 'Checking ' },
        { type: 'text-delta', text: 'both.' },
        {
          type: 'tool-call-delta',
          index: 0,
          callId: 'fc_paris',
          toolName: 'get_weather',
          argumentsDelta: '{"city":"Paris"}',
        },
        {
          type: 'tool-call-delta',
          index: 1,
          callId: 'call_1',
          toolName: 'get_weather',
          argumentsDelta: '{"city":"Oslo"}',
        },
      ]);
    }
  });

  it('sends history with function responses, signatures back on their parts, media, tools, tool config and settings', async () => {
    server.reply(answerWith(textResponse('Sunny.', 'STOP')));
    const request: ModelRequest = {
      model: 'gemini-test',
      contents: [
        {
          speaker: 'human',
          blocks: [
            { type: 'text', text: 'Weather in Paris and Oslo?' },
            { type: 'media', mimeType: 'image/png', data: 'iVBORw0KGgo=', encoding: 'base64' },
            {
              type: 'media',
              mimeType: 'application/pdf',
              data: 'https://example.com/a.pdf',
              encoding: 'url',
            },
          ],
        },
        {
          speaker: 'ai',
          blocks: [
            { type: 'thinking', thought: 'Two cities.', signature: 'c2lnVGhvdWdodA==' },
            {
              type: 'thinking',
              thought: '',
              redacted: true,
              encryptedContent: 'from-another-provider',
            },
            {
              type: 'tool_call',
              id: 'fc_paris',
              name: 'get_weather',
              parameters: { city: 'Paris' },
              metadata: { google: { thoughtSignature: 'c2lnQ2FsbA==' } },
            },
            {
              type: 'tool_call',
              id: 'call_1',
              name: 'get_weather',
              parameters: { city: 'Oslo' },
              metadata: { google: { syntheticId: true } },
            },
          ],
        },
        {
          speaker: 'tool',
          blocks: [
            {
              type: 'tool_response',
              callId: 'fc_paris',
              toolName: 'get_weather',
              result: { sky: 'clear' },
            },
            {
              type: 'tool_response',
              callId: 'call_1',
              toolName: 'get_weather',
              result: null,
              error: 'timeout',
            },
          ],
        },
        { speaker: 'human', blocks: [{ type: 'text', text: 'Be brief.' }] },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather by city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { name: 'get_time', parameters: { type: 'object' } },
        { name: 'delete_all', parameters: { type: 'object' } },
      ],
      settings: {
        systemInstruction: 'You are terse.',
        temperature: 0.3,
        topP: 0.9,
        topK: 40,
        maxOutputTokens: 2000,
        stopSequences: ['END'],
        seed: 7,
        reasoning: { budgetTokens: 1024, includeThoughts: true, effort: 'high' },
        toolChoice: { mode: 'required', allowedToolNames: ['get_time', 'get_weather'] },
        additionalParams: { responseMimeType: 'text/plain' },
      },
    };
    await surface.call(model, request);
    expect(lastBody()).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Weather in Paris and Oslo?' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { fileData: { mimeType: 'application/pdf', fileUri: 'https://example.com/a.pdf' } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'Two cities.', thought: true, thoughtSignature: 'c2lnVGhvdWdodA==' },
            {
              functionCall: { id: 'fc_paris', name: 'get_weather', args: { city: 'Paris' } },
              thoughtSignature: 'c2lnQ2FsbA==',
            },
            { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'fc_paris',
                name: 'get_weather',
                response: { output: { sky: 'clear' } },
              },
            },
            { functionResponse: { name: 'get_weather', response: { error: 'timeout' } } },
            { text: 'Be brief.' },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      generationConfig: {
        temperature: 0.3,
        topP: 0.9,
        topK: 40,
        maxOutputTokens: 2000,
        stopSequences: ['END'],
        seed: 7,
        responseMimeType: 'text/plain',
        thinkingConfig: { thinkingBudget: 1024, includeThoughts: true, thinkingLevel: 'HIGH' },
      },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather by city',
              parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
            },
            { name: 'get_time', parametersJsonSchema: { type: 'object' } },
          ],
        },
      ],
      toolConfig: {
        functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time', 'get_weather'] },
      },
    });
  });

  it.each([
    [{ mode: 'auto' } as const, { mode: 'AUTO' }, ['a', 'b']],
    [{ mode: 'none' } as const, { mode: 'NONE' }, ['a', 'b']],
    [{ mode: 'required' } as const, { mode: 'ANY' }, ['a', 'b']],
    [
      { mode: 'required', allowedToolNames: ['b'] } as const,
      { mode: 'ANY', allowedFunctionNames: ['b'] },
      ['b'],
    ],
    [{ mode: 'auto', allowedToolNames: ['b'] } as const, { mode: 'AUTO' }, ['b']],
  ])(
    'maps tool choice %j to functionCallingConfig %j and sends the allowed declarations',
    async (toolChoice, expected, names) => {
      server.reply(answerWith(textResponse('ok', 'STOP')));
      await surface.call(model, {
        ...hello,
        tools: [
          { name: 'a', parameters: { type: 'object' } },
          { name: 'b', parameters: { type: 'object' } },
        ],
        settings: { toolChoice },
      });
      expect(lastBody()['toolConfig']).toEqual({ functionCallingConfig: expected });
      const [group] = lastBody()['tools'] as { functionDeclarations: { name: string }[] }[];
      expect(group!.functionDeclarations.map((declaration) => declaration.name)).toEqual(names);
    },
  );

  it.each([...documentedFinishReasons, ['SOME_FUTURE_REASON', 'other'] as const])(
    'maps finishReason %s to %s and keeps the raw value',
    async (raw, expected) => {
      server.reply(answerWith(textResponse('x', raw)));
      const { response } = await surface.call(model, hello);
      expect(response.finishReason).toBe(expected);
      expect(response.rawStopReason).toBe(raw);
    },
  );

  it('reports a blocked prompt (promptFeedback.blockReason, no candidate) as safety with the raw reason', async () => {
    server.reply(
      answerWith({
        promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
        usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
      }),
    );
    const { response } = await surface.call(model, hello);
    expect(response.content.blocks).toEqual([]);
    expect(response).toMatchObject({ finishReason: 'safety', rawStopReason: 'PROHIBITED_CONTENT' });
  });

  it('reports no finish reason when the provider reports none', async () => {
    server.reply(answerWith(textResponse('x')));
    const { response } = await surface.call(model, hello);
    expect(response.finishReason).toBeUndefined();
    expect(response.rawStopReason).toBeUndefined();
  });

  it('reports a 429 as rate_limit with retryAfterMs from retry-after', async () => {
    server.reply(() => ({
      status: 429,
      headers: { 'retry-after': '7' },
      json: {
        error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' },
      },
    }));
    expect(await failureOf(surface.call(model, hello))).toMatchObject({
      kind: 'rate_limit',
      provider: 'google',
      status: 429,
      retryAfterMs: 7000,
    });
  });

  it('takes retryAfterMs from the RetryInfo detail when there is no retry-after header', async () => {
    server.reply(() => ({
      status: 429,
      json: {
        error: {
          code: 429,
          message: 'You exceeded your current quota',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '31s' }],
        },
      },
    }));
    expect(await failureOf(surface.call(model, hello))).toMatchObject({
      kind: 'rate_limit',
      retryAfterMs: 31_000,
    });
  });

  it.each([
    [401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.', 'authentication'],
    [403, 'PERMISSION_DENIED', 'Permission denied.', 'authentication'],
    [400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'authentication'],
    [
      400,
      'INVALID_ARGUMENT',
      'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      'context_length',
    ],
    [400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.', 'invalid_request'],
    [500, 'INTERNAL', 'An internal error has occurred.', 'server'],
    [503, 'UNAVAILABLE', 'The model is overloaded.', 'server'],
  ])('reports HTTP %i %s (%s) as %s', async (status, code, message, kind) => {
    server.reply(() => ({ status, json: { error: { code: status, message, status: code } } }));
    const error = await failureOf(surface.call(model, hello));
    expect(error).toMatchObject({ kind, status });
    expect(error.message).toContain(message);
  });

  it('reports an unreachable server as a network error', async () => {
    const closed = await startRecordingServer();
    await closed.close();
    const unreachable = createGoogleModel({
      model: 'gemini-test',
      apiKey: 'k',
      baseURL: closed.url,
      maxRetries: 0,
    });
    expect(await failureOf(surface.call(unreachable, hello))).toMatchObject({ kind: 'network' });
  });

  it('aborts the HTTP request when the signal fires and reports aborted', async () => {
    server.reply(() => ({ frames: [], hold: true }));
    const controller = new AbortController();
    const closed = server.clientClosed();
    const before = server.requests.length;
    const call = surface.call(model, hello, controller.signal);
    await expect.poll(() => server.requests.length).toBe(before + 1);
    controller.abort();
    expect(await failureOf(call)).toMatchObject({ kind: 'aborted' });
    await closed;
  });
});

describe('Gemini adapter (stream only)', () => {
  it('turns an error chunk mid-stream into a ModelError after the deltas before it', async () => {
    server.reply(() => ({
      frames: [
        dataEvent(textResponse('Partial')),
        dataEvent({
          error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' },
        }),
      ],
    }));
    const parts: ModelStreamPart[] = [];
    const error = await failureOf(
      (async () => {
        for await (const part of model.stream(hello)) parts.push(part);
      })(),
    );
    expect(parts).toEqual([{ type: 'text-delta', text: 'Partial' }]);
    expect(error).toMatchObject({ kind: 'server', provider: 'google', status: 503 });
  });

  it('keeps a signature that arrives on an empty trailing text part on the streamed text block', async () => {
    server.reply(() => ({
      frames: [
        dataEvent({ candidates: [{ content: { role: 'model', parts: [{ text: 'Done' }] } }] }),
        dataEvent({
          candidates: [
            {
              content: { role: 'model', parts: [{ text: '', thoughtSignature: 'c2lnVGV4dA==' }] },
              finishReason: 'STOP',
            },
          ],
        }),
      ],
    }));
    const parts: ModelStreamPart[] = [];
    for await (const part of model.stream(hello)) parts.push(part);
    const finish = parts.at(-1);
    expect(parts.slice(0, -1)).toEqual([{ type: 'text-delta', text: 'Done' }]);
    expect(finish?.type === 'finish' ? finish.response.content.blocks : undefined).toEqual([
      { type: 'text', text: 'Done', metadata: { google: { thoughtSignature: 'c2lnVGV4dA==' } } },
    ]);
  });
});
