import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/content/index.ts';
import {
  requestPatchFromOverride,
  responseFromOverride,
} from '../../src/hook-kinds/group/index.ts';
import { applyRequestPatch, mergeRequestPatches } from '../../src/hooks/index.ts';
import { mergeHookLLMRequest } from '../../src/wire/index.ts';

const base: ModelRequest = {
  model: 'big',
  contents: [{ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] }],
  tools: [{ name: 'shell', parameters: { type: 'object' } }],
  settings: { temperature: 1, topK: 40, additionalParams: { user: 'a' } },
};

describe('a BeforeModel llm_request override as a RequestPatch', () => {
  const overrides = [
    { model: 'small' },
    {
      settings: {
        temperature: 0.2,
        topK: 5,
        seed: 7,
        stopSequences: ['END'],
        additionalParams: { store: false },
      },
    },
    {
      contents: [
        { speaker: 'human' as const, blocks: [{ type: 'text' as const, text: 'replaced' }] },
      ],
      tools: [],
    },
  ];

  for (const override of overrides) {
    it(`applies exactly as the wire's merge rule does: ${JSON.stringify(override).slice(0, 60)}`, () => {
      expect(applyRequestPatch(base, requestPatchFromOverride(override))).toEqual(
        mergeHookLLMRequest(base, override),
      );
    });
  }

  it('merges settings of several hooks later-wins, as the wire merges several overrides', () => {
    const warnings: string[] = [];
    const merged = mergeRequestPatches(
      requestPatchFromOverride({ settings: { topK: 5, seed: 1 } }),
      requestPatchFromOverride({ settings: { seed: 2 } }),
      (field) => warnings.push(field),
    );
    expect(applyRequestPatch(base, merged).settings).toMatchObject({ topK: 5, seed: 2 });
  });
});

describe('an llm_response override as a response', () => {
  it('drops the envelope version and replaces fields over the base response', () => {
    const response = responseFromOverride(
      { version: 2, content: { speaker: 'ai', blocks: [{ type: 'text', text: 'new' }] } },
      {
        content: { speaker: 'ai', blocks: [{ type: 'text', text: 'old' }] },
        finishReason: 'stop',
        id: 'r1',
      },
    );
    expect(response).toEqual({
      content: { speaker: 'ai', blocks: [{ type: 'text', text: 'new' }] },
      finishReason: 'stop',
      id: 'r1',
    });
  });
});
