import { describe, expect, it } from 'vitest';
import { message, text, type ModelRequest } from '../../src/content/index.ts';
import {
  applyRequestPatch,
  isEmptyRequestPatch,
  mergeRequestPatches,
} from '../../src/hooks/index.ts';

const request: ModelRequest = {
  model: 'base-model',
  contents: [message('human', [text('hello')])],
  tools: [
    { name: 'read', parameters: {} },
    { name: 'write', parameters: {} },
    { name: 'list', parameters: {} },
  ],
  settings: { temperature: 1, additionalParams: { seed: 1, user: 'u' } },
};

describe('mergeRequestPatches', () => {
  it('replaces earlier additional params when the later value is not a plain object', () => {
    expect(
      mergeRequestPatches(
        { additionalParams: { x: 1 } },
        { additionalParams: [1] },
        () => undefined,
      ).additionalParams,
    ).toEqual([1]);
  });

  it('keeps an earlier field the later patch does not set, without a warning', () => {
    const warnings: string[] = [];
    const merged = mergeRequestPatches({ model: 'a', history: [] }, { temperature: 0 }, (field) =>
      warnings.push(field),
    );
    expect(merged).toEqual({ model: 'a', history: [], temperature: 0 });
    expect(warnings).toEqual([]);
  });

  it('warns for history and tools overwritten by a later patch', () => {
    const warnings: string[] = [];
    mergeRequestPatches({ history: [], tools: [] }, { history: [], tools: [] }, (field) =>
      warnings.push(field),
    );
    expect(warnings).toEqual(['tools', 'history']);
  });

  it('does not change its inputs', () => {
    const earlier = { extraContext: ['a'], activeTools: ['x'] };
    mergeRequestPatches(earlier, { extraContext: ['b'], activeTools: ['y'] }, () => undefined);
    expect(earlier).toEqual({ extraContext: ['a'], activeTools: ['x'] });
  });
});

describe('applyRequestPatch', () => {
  it('replaces the model, settings scalars and history, and appends extra context as a human message after the history', () => {
    const history = [message('human', [text('replaced')])];
    const patched = applyRequestPatch(request, {
      model: 'patched-model',
      systemInstruction: 'be brief',
      temperature: 0.2,
      maxOutputTokens: 64,
      topP: 0.9,
      toolChoice: { mode: 'required' },
      reasoning: { effort: 'low' },
      history,
      extraContext: ['doc one', 'doc two'],
    });
    expect(patched).toEqual({
      model: 'patched-model',
      contents: [history[0], message('human', [text('doc one'), text('doc two')])],
      tools: request.tools,
      settings: {
        temperature: 0.2,
        maxOutputTokens: 64,
        topP: 0.9,
        systemInstruction: 'be brief',
        toolChoice: { mode: 'required' },
        reasoning: { effort: 'low' },
        additionalParams: { seed: 1, user: 'u' },
      },
    });
    expect(request.settings?.temperature).toBe(1);
  });

  it('filters tools by activeTools after a tools replacement', () => {
    const patched = applyRequestPatch(request, {
      tools: [
        { name: 'search', parameters: {} },
        { name: 'read', parameters: {} },
      ],
      activeTools: ['read', 'write'],
    });
    expect(patched.tools?.map((tool) => tool.name)).toEqual(['read']);
  });

  it('shallow-merges additional params over the request settings', () => {
    expect(
      applyRequestPatch(request, { additionalParams: { seed: 7, store: false } }).settings
        ?.additionalParams,
    ).toEqual({
      seed: 7,
      user: 'u',
      store: false,
    });
  });

  it('rejects additional params that are not a plain object, naming the field', () => {
    expect(() => applyRequestPatch(request, { additionalParams: 'seed=7' })).toThrow(
      /RequestPatch\.additionalParams must be a plain object.*got a string/,
    );
  });

  it('returns an equal request for an empty patch', () => {
    expect(isEmptyRequestPatch({ extraContext: [] })).toBe(true);
    expect(isEmptyRequestPatch({ temperature: 0 })).toBe(false);
    expect(applyRequestPatch(request, {})).toEqual(request);
  });
});
