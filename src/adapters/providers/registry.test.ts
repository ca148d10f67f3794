import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookwireError, type ModelRequest } from '../../content/index.ts';
import {
  startRecordingServer,
  type RecordingServer,
} from '../../../test/support/recording-server.ts';
import { createModelFromSpec, MODEL_PROVIDERS, ModelSpecError } from './registry.ts';

function specError(run: () => unknown): ModelSpecError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelSpecError);
    expect(HookwireError.isInstance(error)).toBe(true);
    return error as ModelSpecError;
  }
  throw new Error('expected the spec to be rejected');
}

const hello: ModelRequest = {
  model: '',
  contents: [{ speaker: 'human', blocks: [{ type: 'text', text: 'Hi' }] }],
};

let server: RecordingServer;
let unreachableURL: string;

beforeAll(async () => {
  server = await startRecordingServer();
  server.reply((request) =>
    request.url.startsWith('/v1/messages')
      ? {
          json: {
            id: 'msg_r',
            type: 'message',
            role: 'assistant',
            model: 'm',
            content: [{ type: 'text', text: 'ok' }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          },
        }
      : {
          json: {
            candidates: [
              { content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' },
            ],
          },
        },
  );
  const closed = await startRecordingServer();
  unreachableURL = closed.url;
  await closed.close();
});
afterAll(async () => {
  await server.close();
});

describe('createModelFromSpec', () => {
  it.each([
    ['openai:gpt-5-mini', 'OPENAI_API_KEY'],
    ['openai-responses:gpt-5-mini', 'OPENAI_API_KEY'],
    ['anthropic:claude-sonnet-4-5', 'ANTHROPIC_API_KEY'],
    ['google:gemini-2.5-flash', 'GEMINI_API_KEY or GOOGLE_API_KEY'],
  ])('rejects %s without a key in one line naming %s', (spec, variable) => {
    const error = specError(() => createModelFromSpec(spec, { env: {} }));
    expect(error.message).toBe(
      `${variable} is not set: export it, or pass --base-url for a keyless local server`,
    );
    expect(error.message).not.toContain('\n');
  });

  it('rejects an unknown provider, listing the valid ones', () => {
    const error = specError(() => createModelFromSpec('mistral:large', { env: {} }));
    expect(error.message).toContain('"mistral"');
    for (const provider of MODEL_PROVIDERS) expect(error.message).toContain(provider);
  });

  it('rejects a spec that names no model', () => {
    expect(
      specError(() => createModelFromSpec('anthropic:', { env: { ANTHROPIC_API_KEY: 'k' } }))
        .message,
    ).toContain('anthropic:MODEL');
    expect(
      specError(() => createModelFromSpec('anthropic', { env: { ANTHROPIC_API_KEY: 'k' } }))
        .message,
    ).toContain('anthropic:MODEL');
  });

  it('rejects openai-compatible without a server to talk to', () => {
    expect(
      specError(() => createModelFromSpec('openai-compatible:llama3', { env: {} })).message,
    ).toBe('openai-compatible needs a server: pass --base-url or set OPENAI_BASE_URL');
  });

  it('creates each provider with the model id after the first colon', () => {
    const env = { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g' };
    expect(createModelFromSpec('openai:gpt-5-mini', { env }).modelId).toBe('gpt-5-mini');
    expect(createModelFromSpec('openai-responses:gpt-5', { env }).modelId).toBe('gpt-5');
    expect(
      createModelFromSpec('openai-compatible:llama3:8b', { env, baseURL: server.url }).modelId,
    ).toBe('llama3:8b');
    expect(createModelFromSpec('anthropic:claude-sonnet-4-5', { env })).toMatchObject({
      provider: 'anthropic',
      modelId: 'claude-sonnet-4-5',
    });
    expect(createModelFromSpec('google:gemini-2.5-flash', { env })).toMatchObject({
      provider: 'google',
      modelId: 'gemini-2.5-flash',
    });
  });

  it('lets --base-url override ANTHROPIC_BASE_URL and a keyless server get a placeholder key', async () => {
    const model = createModelFromSpec('anthropic:claude-local', {
      baseURL: server.url,
      env: { ANTHROPIC_BASE_URL: unreachableURL },
    });
    const response = await model.generate(hello);
    expect(response.content.blocks).toEqual([{ type: 'text', text: 'ok' }]);
    const sent = server.requests.at(-1)!;
    expect(sent.url).toBe('/v1/messages');
    expect(sent.headers.authorization).toBe('Bearer not-needed');
    expect((sent.body as { model: string }).model).toBe('claude-local');
  });

  it('reads GOOGLE_GEMINI_BASE_URL and prefers GEMINI_API_KEY over GOOGLE_API_KEY', async () => {
    const model = createModelFromSpec('google:gemini-local', {
      env: {
        GOOGLE_GEMINI_BASE_URL: server.url,
        GEMINI_API_KEY: 'gemini-key',
        GOOGLE_API_KEY: 'google-key',
      },
    });
    await model.generate(hello);
    const sent = server.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-local:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('gemini-key');
  });

  it('falls back to GOOGLE_API_KEY when GEMINI_API_KEY is unset', async () => {
    const model = createModelFromSpec('google:gemini-local', {
      baseURL: server.url,
      env: { GOOGLE_API_KEY: 'google-key', GEMINI_API_KEY: '' },
    });
    await model.generate(hello);
    expect(server.requests.at(-1)!.headers['x-goog-api-key']).toBe('google-key');
  });
});
