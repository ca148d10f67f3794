import { describe, expect, it } from 'vitest';
import type { Message, ToolDeclaration } from '../content/blocks.ts';
import type { ModelRequest } from '../content/model.ts';
import { mergeHookLLMRequest, mergeLLMRequestOverrides } from './merge-request.ts';

const human = (text: string): Message => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const tool = (name: string): ToolDeclaration => ({ name, parameters: { type: 'object' } });

function base(): ModelRequest {
  return {
    model: 'base-model',
    contents: [human('original')],
    tools: [tool('read_file')],
    settings: { temperature: 1, maxOutputTokens: 100, toolChoice: { mode: 'auto' } },
  };
}

describe('mergeHookLLMRequest', () => {
  it('replaces contents and tools by reference', () => {
    const contents = [human('rewritten')];
    const tools = [tool('write_file')];
    const merged = mergeHookLLMRequest(base(), { contents, tools });
    expect(merged.contents).toBe(contents);
    expect(merged.tools).toBe(tools);
    expect(merged.model).toBe('base-model');
  });

  it('replaces the model when it is a string', () => {
    expect(mergeHookLLMRequest(base(), { model: 'other' }).model).toBe('other');
  });

  it('shallow-merges settings, the override winning per key', () => {
    const merged = mergeHookLLMRequest(base(), {
      settings: { temperature: 0, toolChoice: { mode: 'none' }, seed: 7 },
    });
    expect(merged.settings).toEqual({
      temperature: 0,
      maxOutputTokens: 100,
      toolChoice: { mode: 'none' },
      seed: 7,
    });
  });

  it('adds settings to a request that has none', () => {
    const { settings: _, ...withoutSettings } = base();
    expect(
      mergeHookLLMRequest<ModelRequest>(withoutSettings, { settings: { topK: 2 } }).settings,
    ).toEqual({
      topK: 2,
    });
  });

  it.each([
    ['absent fields', {}],
    ['a non-string model', { model: 42 }],
    ['non-array contents', { contents: { speaker: 'human' } }],
    ['non-array tools', { tools: 'read_file' }],
    ['array settings', { settings: [1] }],
    ['null settings', { settings: null }],
    ['a non-object override', 'override'],
    ['a null override', null],
  ])('leaves the request untouched for %s', (_name, override) => {
    const request = base();
    expect(mergeHookLLMRequest(request, override)).toBe(request);
  });

  it('keeps fields of the base it does not know (e.g. the envelope version)', () => {
    const envelope = { version: 2 as const, ...base() };
    expect(mergeHookLLMRequest(envelope, { model: 'x' }).version).toBe(2);
  });

  it('does not change the base', () => {
    const request = base();
    mergeHookLLMRequest(request, { model: 'x', settings: { temperature: 0 } });
    expect(request).toEqual(base());
  });
});

describe('mergeLLMRequestOverrides', () => {
  it('lets the later hook win per field and shallow-merges settings', () => {
    const firstContents = [human('first')];
    const secondContents = [human('second')];
    const merged = mergeLLMRequestOverrides([
      { model: 'a', contents: firstContents, settings: { temperature: 1, topK: 5 } },
      { contents: secondContents, settings: { temperature: 0 } },
      { model: 'c', tools: 'wrong type is skipped' },
    ]);
    expect(merged).toEqual({
      model: 'c',
      contents: secondContents,
      settings: { temperature: 0, topK: 5 },
    });
    expect(merged?.contents).toBe(secondContents);
  });

  it('returns undefined when no override carries anything', () => {
    expect(mergeLLMRequestOverrides([])).toBeUndefined();
    expect(mergeLLMRequestOverrides([{}, null, { model: 1 }])).toBeUndefined();
  });

  it('gives the same request as applying the overrides one by one', () => {
    const overrides = [
      { model: 'a', settings: { temperature: 1 } },
      { tools: [tool('x')], settings: { seed: 3 } },
    ];
    const combined = mergeLLMRequestOverrides(overrides);
    const sequential = overrides.reduce<ModelRequest>(
      (request, override) => mergeHookLLMRequest(request, override),
      base(),
    );
    expect(mergeHookLLMRequest(base(), combined)).toEqual(sequential);
  });
});
