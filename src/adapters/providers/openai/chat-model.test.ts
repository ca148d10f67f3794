import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelError, text } from '../../../content/index.ts';
import type { ModelRequest, ToolDeclaration } from '../../../content/index.ts';
import {
  chatScenarios,
  chunk,
  completion,
  done,
} from '../../../../test/fixtures/openai/chat-scenarios.ts';
import { call, surfaces } from '../../../../test/fixtures/openai/surfaces.ts';
import { startLoopbackServer } from '../../../../test/support/loopback-server.ts';
import type { LoopbackServer, ScriptedReply } from '../../../../test/support/loopback-server.ts';
import { createOpenAIChatModel } from './index.ts';

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

const model = (compatible = false) =>
  createOpenAIChatModel({
    model: 'gpt-test',
    apiKey: 'sk-test',
    baseURL: server.baseURL,
    maxRetries: 0,
    compatible,
  });

const hello: ModelRequest = {
  model: 'gpt-test',
  contents: [{ speaker: 'human', blocks: [text('Hi')] }],
};

const readFile: ToolDeclaration = {
  name: 'read_file',
  description: 'Reads a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
const listDir: ToolDeclaration = {
  name: 'list_dir',
  parameters: { type: 'object', properties: {} },
};
const writeFile: ToolDeclaration = { name: 'write_file', parameters: { type: 'object' } };

/** The wire fields that differ between the surfaces; everything else must be identical. */
function streamFields(surface: 'generate' | 'stream') {
  return surface === 'stream'
    ? { stream: true, stream_options: { include_usage: true } }
    : { stream: false };
}

function answer(
  surface: 'generate' | 'stream',
  events: ScriptedReply & { type: 'sse' },
  body: unknown,
): ScriptedReply {
  return surface === 'stream' ? events : { type: 'json', body };
}

describe.each(surfaces)('OpenAI Chat Completions (%s)', (surface) => {
  describe.each(
    chatScenarios.filter((scenario) => surface === 'generate' || scenario.blockingOnly !== true),
  )('maps $name', (scenario) => {
    it('to the neutral content, finish reason and usage', async () => {
      server.reply(answer(surface, { type: 'sse', events: scenario.events }, scenario.body));
      const { response } = await call(model(), surface, hello);
      expect(response.content).toEqual({ speaker: 'ai', blocks: scenario.blocks });
      expect(response.finishReason).toBe(scenario.finishReason);
      expect(response.rawStopReason).toBe(scenario.rawStopReason);
      expect(response.usage).toEqual(scenario.usage);
      expect(response.id).toBe('chatcmpl-abc123');
    });
  });

  it('sends the conversation, tools, tool choice and settings as the Chat Completions body', async () => {
    server.reply(
      answer(
        surface,
        { type: 'sse', events: [chunk({ content: 'ok' }, 'stop'), done] },
        completion({ content: 'ok' }, 'stop'),
      ),
    );
    const request: ModelRequest = {
      model: 'gpt-test',
      contents: [
        {
          speaker: 'human',
          blocks: [
            text('What is in a.txt?'),
            { type: 'media', mimeType: 'image/png', data: 'iVBORw0KGgo=', encoding: 'base64' },
          ],
        },
        {
          speaker: 'ai',
          blocks: [
            { type: 'thinking', thought: 'not sent' },
            text('Let me look.'),
            { type: 'tool_call', id: 'call_1', name: 'read_file', parameters: { path: 'a.txt' } },
            { type: 'tool_call', id: 'call_2', name: 'list_dir', parameters: '{"broken' },
          ],
        },
        {
          speaker: 'tool',
          blocks: [
            {
              type: 'tool_response',
              callId: 'call_1',
              toolName: 'read_file',
              result: { lines: 2 },
            },
            {
              type: 'tool_response',
              callId: 'call_2',
              toolName: 'list_dir',
              result: null,
              error: 'permission denied',
            },
          ],
        },
        { speaker: 'human', blocks: [text('Thanks')] },
      ],
      tools: [readFile, listDir, writeFile],
      settings: {
        systemInstruction: 'Be brief.',
        temperature: 0.2,
        maxOutputTokens: 256,
        topP: 0.9,
        topK: 40,
        stopSequences: ['END'],
        seed: 7,
        reasoning: { effort: 'low' },
        toolChoice: { mode: 'auto', allowedToolNames: ['list_dir', 'read_file'] },
        additionalParams: { user: 'user-1', temperature: 0.3 },
      },
    };
    await call(model(), surface, request);
    expect(server.lastRequest().path).toBe('/v1/chat/completions');
    expect(server.lastRequest().headers.authorization).toBe('Bearer sk-test');
    expect(server.lastRequest().body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in a.txt?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
            },
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'list_dir', arguments: '{"broken' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"lines":2}' },
        { role: 'tool', tool_call_id: 'call_2', content: 'Error: permission denied' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'read_file',
            description: 'Reads a file',
            parameters: readFile.parameters,
          },
        },
        { type: 'function', function: { name: 'list_dir', parameters: listDir.parameters } },
      ],
      tool_choice: 'auto',
      temperature: 0.3,
      top_p: 0.9,
      max_completion_tokens: 256,
      stop: ['END'],
      seed: 7,
      reasoning_effort: 'low',
      user: 'user-1',
      ...streamFields(surface),
    });
  });

  it('sends max_tokens and top_k to a compatible server', async () => {
    server.reply(
      answer(
        surface,
        { type: 'sse', events: [chunk({ content: 'ok' }, 'stop'), done] },
        completion({ content: 'ok' }, 'stop'),
      ),
    );
    const compatibleModel = model(true);
    expect(compatibleModel.provider).toBe('openai-compatible');
    await call(compatibleModel, surface, { ...hello, settings: { maxOutputTokens: 64, topK: 5 } });
    expect(server.lastRequest().body).toEqual({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 64,
      top_k: 5,
      ...streamFields(surface),
    });
  });

  it.each([
    ['none', { mode: 'none' }, 'none', ['read_file', 'list_dir', 'write_file']],
    ['required', { mode: 'required' }, 'required', ['read_file', 'list_dir', 'write_file']],
    [
      'required with one allowed tool (forced)',
      { mode: 'required', allowedToolNames: ['write_file'] },
      { type: 'function', function: { name: 'write_file' } },
      ['write_file'],
    ],
    [
      'an allowlist',
      { mode: 'auto', allowedToolNames: ['write_file', 'read_file'] },
      'auto',
      ['read_file', 'write_file'],
    ],
    ['no tool choice', undefined, undefined, ['read_file', 'list_dir', 'write_file']],
  ] as const)(
    'enforces tool choice %s on the request',
    async (_name, toolChoice, wireChoice, names) => {
      server.reply(
        answer(
          surface,
          { type: 'sse', events: [chunk({ content: 'ok' }, 'stop'), done] },
          completion({ content: 'ok' }, 'stop'),
        ),
      );
      await call(model(), surface, {
        ...hello,
        tools: [readFile, listDir, writeFile],
        ...(toolChoice === undefined ? {} : { settings: { toolChoice } }),
      });
      const body = server.lastRequest().body as {
        tools: { function: { name: string } }[];
        tool_choice?: unknown;
      };
      expect(body.tools.map((tool) => tool.function.name)).toEqual(names);
      expect(body.tool_choice).toEqual(wireChoice);
    },
  );

  it('sends no tools when an allowlist leaves none', async () => {
    server.reply(
      answer(
        surface,
        { type: 'sse', events: [chunk({ content: 'ok' }, 'stop'), done] },
        completion({ content: 'ok' }, 'stop'),
      ),
    );
    await call(model(), surface, {
      ...hello,
      tools: [readFile],
      settings: { toolChoice: { mode: 'required', allowedToolNames: ['nope'] } },
    });
    expect(server.lastRequest().body).not.toHaveProperty('tools');
    expect(server.lastRequest().body).not.toHaveProperty('tool_choice');
  });

  it.each([
    [
      429,
      'rate_limit',
      { 'retry-after': '3' },
      3000,
      { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
    ],
    [
      429,
      'rate_limit',
      { 'retry-after-ms': '1500' },
      1500,
      { message: 'Slow down', type: 'requests', code: null },
    ],
    [
      401,
      'authentication',
      {},
      undefined,
      {
        message: 'Incorrect API key provided',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      },
    ],
    [
      403,
      'authentication',
      {},
      undefined,
      { message: 'Country not supported', type: 'invalid_request_error', code: null },
    ],
    [
      400,
      'context_length',
      {},
      undefined,
      {
        message: "This model's maximum context length is 128000 tokens.",
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
      },
    ],
    [
      400,
      'invalid_request',
      {},
      undefined,
      {
        message: "Unrecognized request argument: 'foo'",
        type: 'invalid_request_error',
        code: null,
      },
    ],
    [
      503,
      'server',
      {},
      undefined,
      { message: 'The server is overloaded', type: 'server_error', code: null },
    ],
  ] as const)(
    'maps HTTP %i to a %s ModelError',
    async (status, kind, headers, retryAfterMs, error) => {
      server.reply({ type: 'json', status, headers, body: { error } });
      const failure = await call(model(), surface, hello).catch((caught: unknown) => caught);
      expect(failure).toBeInstanceOf(ModelError);
      const modelError = failure as ModelError;
      expect(modelError.kind).toBe(kind);
      expect(modelError.status).toBe(status);
      expect(modelError.retryAfterMs).toBe(retryAfterMs);
      expect(modelError.provider).toBe('openai');
      expect(modelError.message).toContain(error.message);
    },
  );

  it('maps a refused connection to a network ModelError', async () => {
    const closed = await startLoopbackServer();
    const baseURL = closed.baseURL;
    await closed.close();
    const unreachable = createOpenAIChatModel({
      model: 'gpt-test',
      apiKey: 'sk-test',
      baseURL,
      maxRetries: 0,
    });
    const failure = await call(unreachable, surface, hello).catch((caught: unknown) => caught);
    expect(failure).toMatchObject({ name: 'ModelError', kind: 'network' });
  });

  it('cancels the HTTP request when the signal aborts', async () => {
    const events = surface === 'stream' ? [chunk({ content: 'Hel' })] : [];
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
      // The request must have reached the server before it is cancelled.
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

describe('OpenAI Chat Completions streaming', () => {
  it('yields tool-call deltas by index with the id and name on the first fragment', async () => {
    server.reply({ type: 'sse', events: chatScenarios[1]!.events });
    const { deltas } = await call(model(), 'stream', hello);
    expect(deltas).toEqual([
      {
        type: 'tool-call-delta',
        index: 0,
        callId: 'call_a',
        toolName: 'read_file',
        argumentsDelta: '',
      },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"pa' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'th": "a.txt"}' },
      {
        type: 'tool-call-delta',
        index: 1,
        callId: 'call_b',
        toolName: 'list_dir',
        argumentsDelta: '{"path"',
      },
      { type: 'tool-call-delta', index: 1, argumentsDelta: ': ".", "depth": 2}' },
    ]);
  });

  it('yields reasoning deltas before text deltas in arrival order', async () => {
    server.reply({ type: 'sse', events: chatScenarios[4]!.events });
    const { deltas } = await call(model(true), 'stream', hello);
    expect(deltas).toEqual([
      { type: 'reasoning-delta', text: 'The user ' },
      { type: 'reasoning-delta', text: 'greets me.' },
      { type: 'text-delta', text: 'Hi!' },
    ]);
  });

  it('throws a ModelError for an error event in the middle of the stream', async () => {
    server.reply({
      type: 'sse',
      events: [
        chunk({ content: 'Hel' }),
        { data: { error: { message: 'The model crashed', type: 'server_error', code: null } } },
      ],
    });
    const parts: unknown[] = [];
    const failure = await (async () => {
      for await (const part of model().stream(hello)) parts.push(part);
    })().catch((caught: unknown) => caught);
    expect(parts).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(failure).toMatchObject({
      name: 'ModelError',
      kind: 'server',
      message: expect.stringContaining('The model crashed') as unknown,
    });
  });
});

const HTML_PAGE =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';

describe.each([false, true])(
  'OpenAI Chat Completions replies that are not an answer (compatible: %s)',
  (compatible) => {
    const provider = compatible ? 'openai-compatible' : 'openai';

    it.each(surfaces)(
      'fails with a server error naming the content type for a 200 HTML page (%s)',
      async (surface) => {
        server.reply({ type: 'raw', contentType: 'text/html', body: HTML_PAGE });
        const failure = await call(model(compatible), surface, hello).catch(
          (caught: unknown) => caught,
        );
        expect(failure).toBeInstanceOf(ModelError);
        const modelError = failure as ModelError;
        expect(modelError.provider).toBe(provider);
        expect(modelError.kind).toBe(surface === 'generate' ? 'server' : 'network');
        expect(modelError.message).toContain('HTTP 200 with text/html');
        expect(modelError.message).not.toContain('Cannot read properties');
        if (surface === 'generate') expect(modelError.message).toContain('<!DOCTYPE html>');
        else expect(modelError.message).toContain('not streaming');
      },
    );

    it('fails when a stream was asked for and a 200 JSON completion arrives', async () => {
      server.reply({ type: 'json', body: completion({ content: 'Hi' }, 'stop') });
      const failure = await call(model(compatible), 'stream', hello).catch(
        (caught: unknown) => caught,
      );
      expect(failure).toMatchObject({ name: 'ModelError', kind: 'network', provider });
      expect((failure as ModelError).message).toMatch(
        /HTTP 200 with application\/json and no server-sent events, so it is not streaming/,
      );
    });

    it('fails when a blocking call gets a JSON body that is not a completion', async () => {
      server.reply({ type: 'json', body: { hello: 'world' } });
      await expect(call(model(compatible), 'generate', hello)).rejects.toMatchObject({
        name: 'ModelError',
        kind: 'server',
        message: expect.stringContaining('not a Chat Completions object') as unknown,
      });
    });

    it.each([
      ['after [DONE]', [chunk({ content: 'Cut' }), done]],
      ['when the connection closes', [chunk({ content: 'Cut' })]],
    ])(
      'fails a stream that ends without a finish reason %s, after yielding the deltas that came',
      async (_how, events) => {
        server.reply({ type: 'sse', events });
        const parts: unknown[] = [];
        const failure = await (async () => {
          for await (const part of model(compatible).stream(hello)) parts.push(part);
        })().catch((caught: unknown) => caught);
        expect(parts.every((part) => (part as { type: string }).type === 'text-delta')).toBe(true);
        expect(failure).toMatchObject({ name: 'ModelError', kind: 'network', provider });
        expect((failure as ModelError).message).toMatch(
          /stream ended after 1 event\(s\) without a finish reason, so the answer was cut short/,
        );
      },
    );
  },
);
