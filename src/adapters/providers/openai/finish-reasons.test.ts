import { describe, expect, it } from 'vitest';
import {
  OPENAI_CHAT_FINISH_REASONS,
  OPENAI_RESPONSES_FINISH_REASONS,
  chatFinishInfo,
  responsesFinishInfo,
} from './index.ts';

const plain = { hasToolCalls: false, refused: false };

describe('OpenAI finish-reason tables', () => {
  it('knows exactly the documented Chat Completions reasons', () => {
    expect(OPENAI_CHAT_FINISH_REASONS.rawValues).toEqual([
      'stop',
      'length',
      'tool_calls',
      'function_call',
      'content_filter',
    ]);
  });

  it.each([
    ['stop', 'stop'],
    ['length', 'max_tokens'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['content_filter', 'safety'],
    ['eos', 'other'],
    ['constructor', 'other'],
  ] as const)('maps Chat Completions %s to %s and keeps the raw value', (raw, reason) => {
    expect(chatFinishInfo(raw, plain)).toEqual({ finishReason: reason, rawStopReason: raw });
  });

  it.each([null, undefined, ''])('reports no reason for a Chat Completions reason of %s', (raw) => {
    expect(chatFinishInfo(raw, plain)).toEqual({});
    expect(chatFinishInfo(raw, { hasToolCalls: true, refused: true })).toEqual({});
  });

  it('reads stop with tool calls as tool_calls, and stop with a refusal as refusal', () => {
    expect(chatFinishInfo('stop', { hasToolCalls: true, refused: false })).toEqual({
      finishReason: 'tool_calls',
      rawStopReason: 'stop',
    });
    expect(chatFinishInfo('stop', { hasToolCalls: false, refused: true })).toEqual({
      finishReason: 'refusal',
      rawStopReason: 'stop',
    });
    expect(chatFinishInfo('length', { hasToolCalls: true, refused: true })).toEqual({
      finishReason: 'max_tokens',
      rawStopReason: 'length',
    });
  });

  it('knows exactly the Responses statuses and incomplete reasons', () => {
    expect(OPENAI_RESPONSES_FINISH_REASONS.rawValues).toEqual([
      'completed',
      'max_output_tokens',
      'content_filter',
      'failed',
      'cancelled',
      'incomplete',
    ]);
  });

  it.each([
    ['completed', null, 'stop', 'completed'],
    ['incomplete', 'max_output_tokens', 'max_tokens', 'max_output_tokens'],
    ['incomplete', 'content_filter', 'safety', 'content_filter'],
    ['incomplete', null, 'other', 'incomplete'],
    ['incomplete', 'max_messages', 'other', 'max_messages'],
    ['failed', null, 'error', 'failed'],
    ['cancelled', null, 'other', 'cancelled'],
    ['expired', null, 'other', 'expired'],
  ] as const)('maps Responses %s (%s) to %s with raw %s', (status, reason, finishReason, raw) => {
    expect(responsesFinishInfo(status, reason, plain)).toEqual({
      finishReason,
      rawStopReason: raw,
    });
  });

  it.each(['in_progress', 'queued', null, undefined])(
    'reports no reason for a Responses status of %s',
    (status) => {
      expect(responsesFinishInfo(status, null, plain)).toEqual({});
    },
  );

  it('reads a completed response with function calls as tool_calls', () => {
    expect(responsesFinishInfo('completed', null, { hasToolCalls: true, refused: false })).toEqual({
      finishReason: 'tool_calls',
      rawStopReason: 'completed',
    });
  });
});
