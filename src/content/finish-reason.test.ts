import { describe, expect, it } from 'vitest';
import {
  FINISH_REASONS,
  FinishReasonMap,
  isFinishReason,
  isTruncatedOutput,
  reconcileFinishReason,
  type FinishReason,
} from './finish-reason.ts';

describe('isFinishReason', () => {
  it('accepts exactly the canonical vocabulary', () => {
    for (const reason of FINISH_REASONS) expect(isFinishReason(reason)).toBe(true);
    for (const value of ['STOP', 'end_turn', 'constructor', '__proto__', 'toString', '', null, 1])
      expect(isFinishReason(value)).toBe(false);
  });
});

describe('isTruncatedOutput', () => {
  it.each<[FinishReason | undefined, boolean]>([
    ['max_tokens', true],
    ['safety', true],
    ['refusal', true],
    ['stop', false],
    ['tool_calls', false],
    ['error', false],
    ['other', false],
    [undefined, false],
  ])('%s → %s', (reason, truncated) => {
    expect(isTruncatedOutput(reason)).toBe(truncated);
  });
});

describe('reconcileFinishReason', () => {
  it('reads stop on a response with tool calls as tool_calls', () => {
    expect(reconcileFinishReason('stop', true)).toBe('tool_calls');
  });

  it('keeps stop when there are no tool calls', () => {
    expect(reconcileFinishReason('stop', false)).toBe('stop');
  });

  it('keeps every other reason, and no reason, whatever the tool calls', () => {
    for (const reason of FINISH_REASONS.filter((value) => value !== 'stop'))
      for (const hasToolCalls of [true, false])
        expect(reconcileFinishReason(reason, hasToolCalls)).toBe(reason);
    expect(reconcileFinishReason(undefined, true)).toBeUndefined();
    expect(reconcileFinishReason(undefined, false)).toBeUndefined();
  });
});

describe('FinishReasonMap', () => {
  const map = new FinishReasonMap({
    end_turn: 'stop',
    max_tokens: 'max_tokens',
    tool_use: 'tool_calls',
    refusal: 'refusal',
  });

  it('maps known raw values and keeps the raw value', () => {
    expect(map.map('end_turn')).toEqual({ finishReason: 'stop', rawStopReason: 'end_turn' });
    expect(map.map('tool_use')).toEqual({ finishReason: 'tool_calls', rawStopReason: 'tool_use' });
  });

  it('maps an unknown raw value to other, keeping it', () => {
    expect(map.map('pause_turn')).toEqual({ finishReason: 'other', rawStopReason: 'pause_turn' });
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'is safe against the prototype name %s (maps to other)',
    (raw) => {
      expect(map.map(raw)).toEqual({ finishReason: 'other', rawStopReason: raw });
    },
  );

  it('is safe when the table itself declares a __proto__ key', () => {
    const table = JSON.parse('{"__proto__": "safety", "STOP": "stop"}') as Record<
      string,
      FinishReason
    >;
    const protoMap = new FinishReasonMap(table);
    expect(protoMap.map('__proto__')).toEqual({
      finishReason: 'safety',
      rawStopReason: '__proto__',
    });
    expect(protoMap.map('constructor')).toEqual({
      finishReason: 'other',
      rawStopReason: 'constructor',
    });
  });

  it.each([undefined, null, ''])('reports no reason for %j, distinct from stop', (raw) => {
    const info = map.map(raw);
    expect(info).toEqual({});
    expect(info.finishReason).toBeUndefined();
    expect(info.finishReason).not.toBe('stop');
    expect('rawStopReason' in info).toBe(false);
  });

  it('lists its raw values in declaration order', () => {
    expect(map.rawValues).toEqual(['end_turn', 'max_tokens', 'tool_use', 'refusal']);
  });
});
