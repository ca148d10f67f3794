import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModel, ModelRequest, ModelStreamPart } from '../../../content/index.ts';
import { failureOf, surfaces } from '../../../../test/fixtures/anthropic/model-surfaces.ts';
import {
  namedEvent,
  startRecordingServer,
  type RecordingServer,
  type Reply,
} from '../../../../test/support/recording-server.ts';
import { ANTHROPIC_FINISH_REASONS, createAnthropicModel } from './index.ts';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../../../test/fixtures/anthropic/${name}`, import.meta.url), 'utf8');

interface MessageJson {
  id: string;
  content: Record<string, unknown>[];
  stop_reason: string | null;
  usage: Record<string, unknown>;
}

/**
 * The documented SSE sequence for a complete message: message_start, a ping, each block split
 * into start/deltas/stop (text and thinking in two deltas, tool input in two JSON fragments,
 * the signature as a signature_delta), message_delta with the stop reason and usage, message_stop.
 */
function framesOf(message: MessageJson): string[] {
  const frames = [
    namedEvent({
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: { ...message.usage, output_tokens: 1 },
      },
    }),
    namedEvent({ type: 'ping' }),
  ];
  const half = (value: string): [string, string] => [
    value.slice(0, Math.ceil(value.length / 2)),
    value.slice(Math.ceil(value.length / 2)),
  ];
  message.content.forEach((block, index) => {
    const delta = (value: Record<string, unknown>): string =>
      namedEvent({ type: 'content_block_delta', index, delta: value });
    switch (block['type']) {
      case 'text':
        frames.push(
          namedEvent({
            type: 'content_block_start',
            index,
            content_block: { type: 'text', text: '' },
          }),
        );
        for (const piece of half(block['text'] as string))
          frames.push(delta({ type: 'text_delta', text: piece }));
        break;
      case 'thinking':
        frames.push(
          namedEvent({
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          }),
        );
        for (const piece of half(block['thinking'] as string))
          frames.push(delta({ type: 'thinking_delta', thinking: piece }));
        frames.push(delta({ type: 'signature_delta', signature: block['signature'] }));
        break;
      case 'tool_use':
        frames.push(
          namedEvent({
            type: 'content_block_start',
            index,
            content_block: { ...block, input: {} },
          }),
        );
        for (const piece of half(JSON.stringify(block['input']))) {
          frames.push(delta({ type: 'input_json_delta', partial_json: piece }));
        }
        break;
      default:
        frames.push(namedEvent({ type: 'content_block_start', index, content_block: block }));
    }
    frames.push(namedEvent({ type: 'content_block_stop', index }));
  });
  frames.push(
    namedEvent({
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage['output_tokens'] },
    }),
    namedEvent({ type: 'message_stop' }),
  );
  return frames;
}

/** Answers a streaming request with the message's SSE frames and a blocking one with its JSON. */
const answerWith =
  (message: MessageJson) =>
  (request: { body: unknown }): Reply =>
    (request.body as { stream?: boolean }).stream === true
      ? { frames: framesOf(message) }
      : {
          json: {
            type: 'message',
            role: 'assistant',
            model: 'claude-test',
            stop_sequence: null,
            ...message,
          },
        };

const hello: ModelRequest = {
  model: 'claude-test',
  contents: [{ speaker: 'human', blocks: [{ type: 'text', text: 'Hello' }] }],
};

/** Every stop reason the Messages API documents, with the canonical reason it must map to. */
const documentedStopReasons = [
  ['end_turn', 'stop'],
  ['stop_sequence', 'stop'],
  ['max_tokens', 'max_tokens'],
  ['model_context_window_exceeded', 'max_tokens'],
  ['tool_use', 'tool_calls'],
  ['pause_turn', 'other'],
  ['refusal', 'refusal'],
] as const;

it('maps exactly the documented stop reasons', () => {
  expect([...ANTHROPIC_FINISH_REASONS.rawValues].sort()).toEqual(
    documentedStopReasons.map(([raw]) => raw).sort(),
  );
});

let server: RecordingServer;
let model: LanguageModel;

beforeAll(async () => {
  server = await startRecordingServer();
  model = createAnthropicModel({
    model: 'claude-test',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    maxRetries: 0,
  });
});
afterAll(async () => {
  await server.close();
});

const lastBody = (): Record<string, unknown> =>
  server.requests.at(-1)!.body as Record<string, unknown>;

describe.each(surfaces)('Anthropic adapter ($name)', (surface) => {
  it('returns text, usage with cache reads, the response id and a stop finish for end_turn', async () => {
    server.reply(
      answerWith({
        id: 'msg_text',
        content: [{ type: 'text', text: 'Hi there!' }],
        stop_reason: 'end_turn',
        usage: {
          input_tokens: 10,
          cache_read_input_tokens: 90,
          cache_creation_input_tokens: 5,
          output_tokens: 4,
        },
      }),
    );
    const { response, parts } = await surface.call(model, hello);
    expect(response.content).toEqual({
      speaker: 'ai',
      blocks: [{ type: 'text', text: 'Hi there!' }],
    });
    expect(response.finishReason).toBe('stop');
    expect(response.rawStopReason).toBe('end_turn');
    expect(response.id).toBe('msg_text');
    expect(response.usage).toEqual({
      promptTokens: 105,
      completionTokens: 4,
      totalTokens: 109,
      cachedTokens: 90,
    });
    if (surface.name === 'stream') {
      expect(parts).toEqual([
        { type: 'text-delta', text: 'Hi th' },
        { type: 'text-delta', text: 'ere!' },
      ]);
    }
    const sent = server.requests.at(-1)!;
    expect(sent.url).toBe('/v1/messages');
    // SDK 1.x sends the API key as a bearer token.
    expect(sent.headers.authorization).toBe('Bearer sk-ant-test');
    expect(sent.body).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      ...(surface.name === 'stream' ? { stream: true } : {}),
    });
  });

  it('assembles thinking with its signature, redacted thinking, text and two tool calls from the documented fixture', async () => {
    server.reply((request) =>
      (request.body as { stream?: boolean }).stream === true
        ? { frames: [fixture('thinking-tools.sse')] }
        : { json: JSON.parse(fixture('thinking-tools.json')) as unknown },
    );
    const { response, parts } = await surface.call(model, hello);
    expect(response.content.blocks).toEqual([
      {
        type: 'thinking',
        thought: 'The user wants the weather in two cities.',
        signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds',
      },
      {
        type: 'thinking',
        thought: '',
        redacted: true,
        encryptedContent: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
      },
      { type: 'text', text: 'Checking both.' },
      {
        type: 'tool_call',
        id: 'toolu_01Paris',
        name: 'get_weather',
        parameters: { city: 'Paris', unit: 'c' },
      },
      { type: 'tool_call', id: 'toolu_02Oslo', name: 'get_weather', parameters: { city: 'Oslo' } },
    ]);
    expect(response).toMatchObject({
      finishReason: 'tool_calls',
      rawStopReason: 'tool_use',
      id: 'msg_01ThinkTools',
    });
    expect(response.usage).toEqual({
      promptTokens: 550,
      completionTokens: 95,
      totalTokens: 645,
      cachedTokens: 400,
      reasoningTokens: 40,
    });
    if (surface.name === 'stream') {
      expect(parts).toEqual([
        { type: 'reasoning-delta', text: 'The user wants the weather ' },
        { type: 'reasoning-delta', text: 'in two cities.' },
        {
          type: 'reasoning-delta',
          text: '',
          signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds',
        },
        { type: 'text-delta', text: 'Checking ' },
        { type: 'text-delta', text: 'both.' },
        {
          type: 'tool-call-delta',
          index: 0,
          callId: 'toolu_01Paris',
          toolName: 'get_weather',
          argumentsDelta: '',
        },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city": "Par' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: 'is", "unit": "c"}' },
        {
          type: 'tool-call-delta',
          index: 1,
          callId: 'toolu_02Oslo',
          toolName: 'get_weather',
          argumentsDelta: '',
        },
        { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":' },
        { type: 'tool-call-delta', index: 1, argumentsDelta: ' "Oslo"}' },
      ]);
    }
  });

  it('sends history with tool results, thinking round-tripped with signatures, media, tools, tool choice and settings', async () => {
    server.reply(
      answerWith({
        id: 'msg_2',
        content: [{ type: 'text', text: 'Sunny.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    );
    const request: ModelRequest = {
      model: 'claude-test',
      contents: [
        {
          speaker: 'human',
          blocks: [
            { type: 'text', text: 'Weather in Paris and Oslo?' },
            { type: 'media', mimeType: 'image/png', data: 'iVBORw0KGgo=', encoding: 'base64' },
            {
              type: 'media',
              mimeType: 'image/jpeg',
              data: 'https://example.com/sky.jpg',
              encoding: 'url',
            },
          ],
        },
        {
          speaker: 'ai',
          blocks: [
            { type: 'thinking', thought: 'Two cities.', signature: 'sig-1' },
            { type: 'thinking', thought: '', redacted: true, encryptedContent: 'opaque-data' },
            { type: 'thinking', thought: 'unsigned, from a hook' },
            {
              type: 'tool_call',
              id: 'toolu_1',
              name: 'get_weather',
              parameters: { city: 'Paris' },
            },
            { type: 'tool_call', id: 'toolu_2', name: 'get_weather', parameters: { city: 'Oslo' } },
          ],
        },
        {
          speaker: 'tool',
          blocks: [
            {
              type: 'tool_response',
              callId: 'toolu_1',
              toolName: 'get_weather',
              result: { sky: 'clear' },
            },
            {
              type: 'tool_response',
              callId: 'toolu_2',
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
        reasoning: { budgetTokens: 1024 },
        toolChoice: { mode: 'required', allowedToolNames: ['get_weather'] },
        additionalParams: { metadata: { user_id: 'user-7' } },
      },
    };
    await surface.call(model, request);
    expect(lastBody()).toEqual({
      model: 'claude-test',
      max_tokens: 2000,
      system: 'You are terse.',
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['END'],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [
        {
          name: 'get_weather',
          description: 'Weather by city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      tool_choice: { type: 'tool', name: 'get_weather' },
      metadata: { user_id: 'user-7' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris and Oslo?' },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
            },
            { type: 'image', source: { type: 'url', url: 'https://example.com/sky.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Two cities.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque-data' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"sky":"clear"}' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'timeout', is_error: true },
            { type: 'text', text: 'Be brief.' },
          ],
        },
      ],
      ...(surface.name === 'stream' ? { stream: true } : {}),
    });
  });

  it.each([
    [{ mode: 'auto' } as const, { type: 'auto' }, ['a', 'b']],
    [{ mode: 'none' } as const, { type: 'none' }, ['a', 'b']],
    [{ mode: 'required' } as const, { type: 'any' }, ['a', 'b']],
    [{ mode: 'required', allowedToolNames: ['b', 'a'] } as const, { type: 'any' }, ['a', 'b']],
    [{ mode: 'auto', allowedToolNames: ['b'] } as const, { type: 'auto' }, ['b']],
  ])(
    'maps tool choice %j to %j and sends the allowed tools in declaration order',
    async (toolChoice, expected, names) => {
      server.reply(
        answerWith({
          id: 'm',
          content: [],
          stop_reason: 'end_turn',
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      );
      await surface.call(model, {
        ...hello,
        tools: [
          { name: 'a', parameters: { type: 'object' } },
          { name: 'b', parameters: { type: 'object' } },
        ],
        settings: { toolChoice },
      });
      expect(lastBody()['tool_choice']).toEqual(expected);
      expect((lastBody()['tools'] as { name: string }[]).map((tool) => tool.name)).toEqual(names);
    },
  );

  it('derives a thinking budget and a larger max_tokens from a reasoning effort', async () => {
    server.reply(
      answerWith({
        id: 'm',
        content: [],
        stop_reason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    );
    await surface.call(model, { ...hello, settings: { reasoning: { effort: 'low' } } });
    expect(lastBody()['thinking']).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(lastBody()['max_tokens']).toBe(2048 + 4096);
  });

  it.each([...documentedStopReasons, ['some_future_reason', 'other'] as const])(
    'maps stop_reason %s to %s and keeps the raw value',
    async (raw, expected) => {
      server.reply(
        answerWith({
          id: 'm',
          content: [{ type: 'text', text: 'x' }],
          stop_reason: raw,
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      );
      const { response } = await surface.call(model, hello);
      expect(response.finishReason).toBe(expected);
      expect(response.rawStopReason).toBe(raw);
    },
  );

  it('reports no finish reason when the provider reports none', async () => {
    server.reply(
      answerWith({
        id: 'm',
        content: [{ type: 'text', text: 'x' }],
        stop_reason: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    );
    const { response } = await surface.call(model, hello);
    expect(response.finishReason).toBeUndefined();
    expect(response.rawStopReason).toBeUndefined();
  });

  it('reports a 429 as rate_limit with retryAfterMs from retry-after', async () => {
    server.reply(() => ({
      status: 429,
      headers: { 'retry-after': '7' },
      json: {
        type: 'error',
        error: {
          type: 'rate_limit_error',
          message: 'Number of requests has exceeded your rate limit',
        },
      },
    }));
    const error = await failureOf(surface.call(model, hello));
    expect(error).toMatchObject({
      kind: 'rate_limit',
      provider: 'anthropic',
      status: 429,
      retryAfterMs: 7000,
    });
  });

  it('reports a 401 as authentication', async () => {
    server.reply(() => ({
      status: 401,
      json: {
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key' },
      },
    }));
    const error = await failureOf(surface.call(model, hello));
    expect(error).toMatchObject({ kind: 'authentication', status: 401 });
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('reports a 400 "prompt is too long" as context_length and other 400s as invalid_request', async () => {
    server.reply(() => ({
      status: 400,
      json: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'prompt is too long: 210000 tokens > 200000 maximum',
        },
      },
    }));
    expect(await failureOf(surface.call(model, hello))).toMatchObject({
      kind: 'context_length',
      status: 400,
    });
    server.reply(() => ({
      status: 400,
      json: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'max_tokens: must be positive' },
      },
    }));
    expect(await failureOf(surface.call(model, hello))).toMatchObject({
      kind: 'invalid_request',
      status: 400,
    });
  });

  it('reports 529 overloaded and 500 as server errors', async () => {
    for (const status of [529, 500]) {
      server.reply(() => ({
        status,
        json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      }));
      expect(await failureOf(surface.call(model, hello))).toMatchObject({ kind: 'server', status });
    }
  });

  it('reports an unreachable server as a network error', async () => {
    const closed = await startRecordingServer();
    await closed.close();
    const unreachable = createAnthropicModel({
      model: 'claude-test',
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
    const call = surface.call(model, hello, controller.signal);
    // Abort only once the request reached the server, so the abort cancels a live request.
    const before = server.requests.length;
    await expect.poll(() => server.requests.length).toBe(before + 1);
    controller.abort();
    expect(await failureOf(call)).toMatchObject({ kind: 'aborted' });
    await closed;
  });
});

/** A stream's first frames: `message_start` (id `id`), then an empty text block's start. */
function openingFrames(id: string): string[] {
  return [
    namedEvent({
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'm',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 3, output_tokens: 1 },
      },
    }),
    namedEvent({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
  ];
}

describe('Anthropic adapter (stream only)', () => {
  it('turns an error event mid-stream into a ModelError after the deltas before it', async () => {
    server.reply(() => ({
      frames: [
        ...openingFrames('msg_e'),
        namedEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'Partial' },
        }),
        `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
      ],
    }));
    const parts: ModelStreamPart[] = [];
    const error = await failureOf(
      (async () => {
        for await (const part of model.stream(hello)) parts.push(part);
      })(),
    );
    expect(parts).toEqual([{ type: 'text-delta', text: 'Partial' }]);
    expect(error).toMatchObject({ kind: 'server', provider: 'anthropic' });
    expect(error.message).toContain('Overloaded');
  });

  it('closes the HTTP request when the consumer stops reading after the first part', async () => {
    server.reply(() => ({
      frames: [
        ...openingFrames('msg_b'),
        namedEvent({
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'First' },
        }),
      ],
      hold: true,
    }));
    const closed = server.clientClosed();
    const parts: ModelStreamPart[] = [];
    for await (const part of model.stream(hello)) {
      parts.push(part);
      break;
    }
    expect(parts).toEqual([{ type: 'text-delta', text: 'First' }]);
    await closed;
  });

  it('reports a stream cut before message_stop as a network error, never as a finished answer', async () => {
    server.reply(() => ({
      frames: [...openingFrames('msg_c')],
    }));
    const error = await failureOf(
      (async () => {
        for await (const _part of model.stream(hello)) {
          // drain
        }
      })(),
    );
    expect(error.kind).toBe('network');
  });
});
