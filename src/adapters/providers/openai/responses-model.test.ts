import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelError, text } from '../../../content/index.ts';
import type { ModelRequest, ToolDeclaration } from '../../../content/index.ts';
import {
  event,
  messageItem,
  responseObject,
  responsesScenarios,
} from '../../../../test/fixtures/openai/responses-scenarios.ts';
import { call, surfaces } from '../../../../test/fixtures/openai/surfaces.ts';
import type { Surface } from '../../../../test/fixtures/openai/surfaces.ts';
import { startLoopbackServer } from '../../../../test/support/loopback-server.ts';
import type {
  LoopbackServer,
  ScriptedReply,
  ServerSentEvent,
} from '../../../../test/support/loopback-server.ts';
import { createOpenAIResponsesModel } from './index.ts';

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});

const model = (modelId = 'gpt-test', reasoningModel?: boolean) =>
  createOpenAIResponsesModel({
    model: modelId,
    apiKey: 'sk-test',
    baseURL: server.baseURL,
    maxRetries: 0,
    ...(reasoningModel === undefined ? {} : { reasoningModel }),
  });

const hello: ModelRequest = {
  model: 'gpt-test',
  contents: [{ speaker: 'human', blocks: [text('Hi')] }],
};

function answer(
  surface: Surface,
  events: readonly ServerSentEvent[],
  body: unknown,
): ScriptedReply {
  return surface === 'stream' ? { type: 'sse', events } : { type: 'json', body };
}
const okAnswer = (surface: Surface) =>
  answer(
    surface,
    [
      event({
        type: 'response.completed',
        response: responseObject('completed', [messageItem('ok')]),
      }),
    ],
    responseObject('completed', [messageItem('ok')]),
  );

const readFile: ToolDeclaration = {
  name: 'read_file',
  description: 'Reads a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
};
const listDir: ToolDeclaration = { name: 'list_dir', parameters: { type: 'object' } };

describe.each(surfaces)('OpenAI Responses (%s)', (surface) => {
  describe.each(
    responsesScenarios.filter(
      (scenario) => surface === 'generate' || scenario.blockingOnly !== true,
    ),
  )('maps $name', (scenario) => {
    it('to the neutral content, finish reason and usage', async () => {
      server.reply(answer(surface, scenario.events, scenario.body));
      const { response } = await call(model(), surface, hello);
      expect(response.content).toEqual({ speaker: 'ai', blocks: scenario.blocks });
      expect(response.finishReason).toBe(scenario.finishReason);
      expect(response.rawStopReason).toBe(scenario.rawStopReason);
      expect(response.usage).toEqual(scenario.usage);
      expect(response.id).toBe('resp_123');
    });
  });

  it('round-trips reasoning with its encrypted content, function calls and their outputs', async () => {
    server.reply(okAnswer(surface));
    const request: ModelRequest = {
      model: 'o4-mini',
      contents: [
        {
          speaker: 'human',
          blocks: [
            text('List a.txt'),
            {
              type: 'media',
              mimeType: 'image/jpeg',
              data: 'https://x.test/a.jpg',
              encoding: 'url',
            },
          ],
        },
        {
          speaker: 'ai',
          blocks: [
            {
              type: 'thinking',
              thought: 'First, read.\n\nThen list.',
              encryptedContent: 'gAAAAB-opaque==',
              metadata: { openai: { itemId: 'rs_1', summary: ['First, read.', 'Then list.'] } },
            },
            // Reasoning from another provider has no item id: it is not sent.
            { type: 'thinking', thought: 'foreign', signature: 'sig' },
            text('Reading.'),
            {
              type: 'tool_call',
              id: 'call_a',
              name: 'read_file',
              parameters: { path: 'a.txt' },
              metadata: { openai: { itemId: 'fc_1' } },
            },
            { type: 'tool_call', id: 'call_b', name: 'list_dir', parameters: {} },
          ],
        },
        {
          speaker: 'tool',
          blocks: [
            { type: 'tool_response', callId: 'call_a', toolName: 'read_file', result: 'two lines' },
            {
              type: 'tool_response',
              callId: 'call_b',
              toolName: 'list_dir',
              result: undefined,
              error: 'timed out',
            },
          ],
        },
      ],
      tools: [readFile, listDir],
      settings: {
        systemInstruction: 'Be brief.',
        maxOutputTokens: 500,
        temperature: 1,
        topP: 0.5,
        reasoning: { effort: 'high', includeThoughts: true },
        toolChoice: { mode: 'required', allowedToolNames: ['list_dir'] },
        additionalParams: { parallel_tool_calls: false },
      },
    };
    await call(model('o4-mini'), surface, request);
    expect(server.lastRequest().path).toBe('/v1/responses');
    expect(server.lastRequest().body).toEqual({
      model: 'o4-mini',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'List a.txt' },
            { type: 'input_image', image_url: 'https://x.test/a.jpg', detail: 'auto' },
          ],
        },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [
            { type: 'summary_text', text: 'First, read.' },
            { type: 'summary_text', text: 'Then list.' },
          ],
          encrypted_content: 'gAAAAB-opaque==',
        },
        { type: 'message', role: 'assistant', content: 'Reading.' },
        {
          type: 'function_call',
          call_id: 'call_a',
          name: 'read_file',
          arguments: '{"path":"a.txt"}',
          id: 'fc_1',
        },
        { type: 'function_call', call_id: 'call_b', name: 'list_dir', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_a', output: 'two lines' },
        { type: 'function_call_output', call_id: 'call_b', output: 'Error: timed out' },
      ],
      store: false,
      instructions: 'Be brief.',
      tools: [
        { type: 'function', name: 'list_dir', parameters: listDir.parameters, strict: false },
      ],
      tool_choice: { type: 'function', name: 'list_dir' },
      temperature: 1,
      top_p: 0.5,
      max_output_tokens: 500,
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      parallel_tool_calls: false,
      stream: surface === 'stream',
    });
  });

  it('asks a non-reasoning model for no encrypted reasoning and drops unstored reasoning without it', async () => {
    server.reply(okAnswer(surface));
    await call(model('gpt-4.1'), surface, {
      ...hello,
      contents: [
        ...hello.contents,
        {
          speaker: 'ai',
          blocks: [
            { type: 'thinking', thought: 'x', metadata: { openai: { itemId: 'rs_9' } } },
            text('Hello'),
          ],
        },
      ],
    });
    const body = server.lastRequest().body as { include?: unknown; input: unknown[] };
    expect(body.include).toBeUndefined();
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
      { type: 'message', role: 'assistant', content: 'Hello' },
    ]);
  });

  it('throws a ModelError carrying the provider error of a failed response', async () => {
    const failed = responseObject('failed', [], {
      error: { code: 'server_error', message: 'Something broke' },
    });
    server.reply(
      answer(
        surface,
        [
          event({ type: 'response.created', response: responseObject('in_progress', []) }),
          event({ type: 'response.failed', response: failed }),
        ],
        failed,
      ),
    );
    const failure = await call(model(), surface, hello).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(ModelError);
    expect(failure).toMatchObject({ kind: 'server', message: 'server_error: Something broke' });
  });

  it.each([
    [
      429,
      'rate_limit',
      { 'retry-after': '2' },
      2000,
      { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
    ],
    [
      401,
      'authentication',
      {},
      undefined,
      { message: 'Incorrect API key', type: 'invalid_request_error', code: 'invalid_api_key' },
    ],
    [
      400,
      'context_length',
      {},
      undefined,
      {
        message: 'Your input exceeds the context window of this model.',
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
      },
    ],
  ] as const)(
    'maps HTTP %i to a %s ModelError',
    async (status, kind, headers, retryAfterMs, error) => {
      server.reply({ type: 'json', status, headers, body: { error } });
      const failure = await call(model(), surface, hello).catch((caught: unknown) => caught);
      expect(failure).toMatchObject({
        name: 'ModelError',
        kind,
        status,
        retryAfterMs,
        message: expect.stringContaining(error.message) as unknown,
      });
    },
  );

  it('cancels the HTTP request when the signal aborts', async () => {
    const events =
      surface === 'stream'
        ? [
            event({ type: 'response.created', response: responseObject('in_progress', []) }),
            ...[
              event({
                type: 'response.output_text.delta',
                output_index: 0,
                item_id: 'msg_1',
                content_index: 0,
                delta: 'Hel',
              }),
            ],
          ]
        : [];
    server.reply({ type: 'sse', events, hold: true });
    const controller = new AbortController();
    const closed = server.clientClosedHeldStream();
    let pending: Promise<unknown>;
    if (surface === 'stream') {
      const iterator = model().stream(hello, { signal: controller.signal })[Symbol.asyncIterator]();
      expect(await iterator.next()).toEqual({
        done: false,
        value: { type: 'text-delta', text: 'Hel' },
      });
      pending = iterator.next();
    } else {
      pending = model().generate(hello, { signal: controller.signal });
      await new Promise<void>((resolve) => {
        const check = (): void => {
          if (server.requests.length > 0) resolve();
          else setImmediate(check);
        };
        check();
      });
    }
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'ModelError', kind: 'aborted' });
    await closed;
  });
});

describe('OpenAI Responses streaming', () => {
  it('yields reasoning, then tool-call deltas numbered by call position', async () => {
    server.reply({ type: 'sse', events: responsesScenarios[1]!.events });
    const { deltas } = await call(model(), 'stream', hello);
    expect(deltas).toEqual([
      { type: 'reasoning-delta', text: 'First, ' },
      { type: 'reasoning-delta', text: 'read.' },
      { type: 'reasoning-delta', text: 'Then list.' },
      {
        type: 'tool-call-delta',
        index: 0,
        callId: 'call_a',
        toolName: 'read_file',
        argumentsDelta: '',
      },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"path":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"a.txt"}' },
      {
        type: 'tool-call-delta',
        index: 1,
        callId: 'call_b',
        toolName: 'list_dir',
        argumentsDelta: '',
      },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"path":".",' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '"depth":2}' },
    ]);
  });

  it.each([
    [
      'with the SSE event name',
      {
        event: 'error',
        data: {
          type: 'error',
          code: 'rate_limit_exceeded',
          message: 'Too fast',
          param: null,
          sequence_number: 3,
        },
      },
    ],
    [
      'as data only',
      {
        data: {
          type: 'error',
          code: 'rate_limit_exceeded',
          message: 'Too fast',
          param: null,
          sequence_number: 3,
        },
      },
    ],
  ] as const)('throws a ModelError for an error event %s', async (_name, errorEvent) => {
    server.reply({
      type: 'sse',
      events: [
        event({
          type: 'response.output_text.delta',
          output_index: 0,
          item_id: 'msg_1',
          content_index: 0,
          delta: 'Hel',
        }),
        errorEvent,
      ],
    });
    const parts: unknown[] = [];
    const failure = await (async () => {
      for await (const part of model().stream(hello)) parts.push(part);
    })().catch((caught: unknown) => caught);
    expect(parts).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(failure).toMatchObject({
      name: 'ModelError',
      kind: 'rate_limit',
      message: expect.stringContaining('Too fast') as unknown,
    });
  });
});

describe('OpenAI Responses replies that are not an answer', () => {
  const HTML_PAGE =
    '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body>nginx</body></html>';

  it.each(surfaces)(
    'fails with a server error naming the content type for a 200 HTML page (%s)',
    async (surface) => {
      server.reply({ type: 'raw', contentType: 'text/html; charset=utf-8', body: HTML_PAGE });
      const failure = await call(model(), surface, hello).catch((caught: unknown) => caught);
      expect(failure).toBeInstanceOf(ModelError);
      const modelError = failure as ModelError;
      expect(modelError.kind).toBe(surface === 'generate' ? 'server' : 'network');
      expect(modelError.message).toContain('HTTP 200 with text/html; charset=utf-8');
      expect(modelError.message).not.toContain('Cannot read properties');
      if (surface === 'generate') expect(modelError.message).toContain('not a Responses object');
      else expect(modelError.message).toContain('not streaming');
    },
  );

  it('fails when a stream was asked for and a 200 JSON response arrives', async () => {
    server.reply({ type: 'json', body: responseObject('completed', [messageItem('ok')]) });
    const failure = await call(model(), 'stream', hello).catch((caught: unknown) => caught);
    expect(failure).toMatchObject({ name: 'ModelError', kind: 'network' });
    expect((failure as ModelError).message).toMatch(
      /HTTP 200 with application\/json and no server-sent events, so it is not streaming/,
    );
  });

  it('fails a stream that ends without a terminal event, after yielding the deltas that came', async () => {
    server.reply({
      type: 'sse',
      events: [
        event({ type: 'response.created', response: responseObject('in_progress', []) }),
        event({
          type: 'response.output_item.added',
          output_index: 0,
          item: { ...messageItem(''), status: 'in_progress', content: [] },
        }),
        event({
          type: 'response.output_text.delta',
          output_index: 0,
          item_id: 'msg_1',
          content_index: 0,
          delta: 'Cut',
        }),
      ],
    });
    const parts: unknown[] = [];
    const failure = await (async () => {
      for await (const part of model().stream(hello)) parts.push(part);
    })().catch((caught: unknown) => caught);
    expect(parts).toEqual([{ type: 'text-delta', text: 'Cut' }]);
    expect(failure).toMatchObject({ name: 'ModelError', kind: 'network' });
    expect((failure as ModelError).message).toContain(
      'the stream ended after 3 event(s) without a terminal response event, so the answer was cut short',
    );
  });
});
