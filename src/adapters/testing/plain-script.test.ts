import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePlainScript } from './plain-script.ts';
import { parseScript } from './scripted-script.ts';

const plain = [
  '{"blocks":[{"type":"text","text":"done"}],"finishReason":"stop"}',
  '// a comment',
  '',
  '{"blocks":[{"type":"tool_call","id":"c1","name":"shell","parameters":{"command":"ls"}}],"finishReason":"tool_calls","rawStopReason":"tool_use","delayMs":5}',
  '{"blocks":[],"finishReason":null}',
].join('\n');

describe('parsePlainScript (the validator-free fast path)', () => {
  it('gives exactly the turns parseScript gives for plain scripts', () => {
    expect(parsePlainScript(plain)).toEqual(parseScript(plain, 'plain.jsonl'));
    const demo = readFileSync(
      new URL('../../../examples/demo/model.jsonl', import.meta.url),
      'utf8',
    );
    const fast = parsePlainScript(demo);
    if (fast !== undefined) expect(fast).toEqual(parseScript(demo, 'demo.jsonl'));
  });

  it.each([
    ['an unknown turn field', '{"blocks":[],"finishReason":"stop","extra":1}'],
    ['a missing finishReason', '{"blocks":[]}'],
    ['a non-canonical finishReason', '{"blocks":[],"finishReason":"end_turn"}'],
    [
      'a block with metadata',
      '{"blocks":[{"type":"text","text":"a","metadata":{}}],"finishReason":"stop"}',
    ],
    ['a non-string text', '{"blocks":[{"type":"text","text":1}],"finishReason":"stop"}'],
    [
      'a tool call without parameters',
      '{"blocks":[{"type":"tool_call","id":"a","name":"b","x":1}],"finishReason":"stop"}',
    ],
    ['a thinking block', '{"blocks":[{"type":"thinking","text":"hm"}],"finishReason":"stop"}'],
    ['usage', '{"blocks":[],"finishReason":"stop","usage":{"inputTokens":1}}'],
    ['a negative delay', '{"blocks":[],"finishReason":"stop","delayMs":-1}'],
    ['invalid JSON', '{"blocks":'],
  ])('leaves %s to the validator', (_what, line) => {
    expect(parsePlainScript(line)).toBeUndefined();
  });
});
