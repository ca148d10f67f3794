import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../anthropic/index.ts';
import { createGoogleModel } from '../google/index.ts';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../openai/index.ts';
import { declaredContextWindow, knownContextWindow } from './context-windows.ts';

describe('knownContextWindow', () => {
  it.each([
    ['anthropic', 'claude-sonnet-4-5', 200_000],
    ['anthropic', 'claude-3-5-haiku-20241022', 200_000],
    ['anthropic', 'claude-instant-1.2', 100_000],
    ['openai', 'gpt-4o', 128_000],
    ['openai', 'gpt-4o-mini-2024-07-18', 128_000],
    ['openai', 'gpt-4.1', 1_047_576],
    ['openai', 'gpt-4.1-nano', 1_047_576],
    ['openai', 'gpt-5-mini', 400_000],
    ['openai', 'gpt-5-chat-latest', 128_000],
    ['openai', 'gpt-4', 8_192],
    ['openai', 'gpt-4-0613', 8_192],
    ['openai', 'gpt-4-turbo', 128_000],
    ['openai', 'gpt-3.5-turbo', 16_385],
    ['openai', 'o1-mini', 128_000],
    ['openai', 'o3', 200_000],
    ['openai', 'o4-mini', 200_000],
    ['google', 'gemini-2.5-flash', 1_048_576],
    ['google', 'models/gemini-2.0-flash', 1_048_576],
    ['google', 'gemini-1.5-pro-002', 2_097_152],
    ['google', 'gemini-1.0-pro', 32_760],
  ] as const)('%s %s: %d', (family, model, tokens) => {
    expect(knownContextWindow(family, model)).toBe(tokens);
  });

  it('knows nothing of ids outside the families (fine-tunes, other vendors, families of another provider)', () => {
    expect(knownContextWindow('openai', 'ft:my-model')).toBeUndefined();
    expect(knownContextWindow('openai', 'llama3:8b')).toBeUndefined();
    expect(knownContextWindow('openai', 'claude-sonnet-4-5')).toBeUndefined();
    expect(knownContextWindow('openai', 'o10-preview')).toBeUndefined();
    expect(knownContextWindow('anthropic', 'gpt-4o')).toBeUndefined();
    expect(knownContextWindow('google', 'gemma-3-27b-it')).toBeUndefined();
  });
});

describe('declaredContextWindow', () => {
  it('takes the option over the table, and nothing for a compatible server', () => {
    expect(declaredContextWindow('openai', 'gpt-4o', 50_000)).toBe(50_000);
    expect(declaredContextWindow('openai', 'gpt-4o', undefined)).toBe(128_000);
    expect(declaredContextWindow(undefined, 'gpt-4o', undefined)).toBeUndefined();
    expect(declaredContextWindow(undefined, 'llama3', 8_000)).toBe(8_000);
    expect(() => declaredContextWindow('openai', 'gpt-4o', 0)).toThrow(RangeError);
    expect(() => declaredContextWindow('openai', 'gpt-4o', 1.5)).toThrow(RangeError);
  });
});

describe('the provider adapters declare LanguageModel.contextWindow', () => {
  const key = { apiKey: 'test-key' };
  it('from the table, the option overriding it', () => {
    expect(createAnthropicModel({ model: 'claude-opus-4-1', ...key }).contextWindow).toBe(200_000);
    expect(createGoogleModel({ model: 'gemini-2.5-pro', ...key }).contextWindow).toBe(1_048_576);
    expect(createOpenAIChatModel({ model: 'gpt-4.1-mini', ...key }).contextWindow).toBe(1_047_576);
    expect(createOpenAIResponsesModel({ model: 'gpt-4o', ...key }).contextWindow).toBe(128_000);
    expect(
      createOpenAIChatModel({ model: 'gpt-4o', ...key, contextWindow: 64_000 }).contextWindow,
    ).toBe(64_000);
  });

  it('not for an unknown id or an OpenAI-compatible server (unless given)', () => {
    const unknown = createAnthropicModel({ model: 'my-proxy-model', ...key });
    expect(unknown.contextWindow).toBeUndefined();
    expect('contextWindow' in unknown).toBe(false);
    const local = { baseURL: 'http://127.0.0.1:1/v1', compatible: true } as const;
    expect(createOpenAIChatModel({ model: 'gpt-4o', ...local }).contextWindow).toBeUndefined();
    expect(createOpenAIResponsesModel({ model: 'gpt-4o', ...local }).contextWindow).toBeUndefined();
    expect(
      createOpenAIChatModel({ model: 'llama3:8b', ...local, contextWindow: 8_192 }).contextWindow,
    ).toBe(8_192);
  });
});
