/**
 * `hookwire run --model anthropic:MODEL` end to end: the tool error goes back as a `tool_result`
 * block with `is_error: true`, opening the user message that answers the `tool_use` block.
 */
import { expect } from 'vitest';
import type { ServerSentEvent } from '../../support/loopback-server.ts';
import {
  CALL_ID,
  FINAL_TEXT,
  SHELL_ARGUMENTS,
  describeProviderEndToEnd,
} from './provider-end-to-end.ts';

/** A named Anthropic event: the SSE `event:` line repeats the payload's `type`. */
function event(data: {
  readonly type: string;
  readonly [field: string]: unknown;
}): ServerSentEvent {
  return { event: data.type, data };
}

const shellArguments = JSON.stringify(SHELL_ARGUMENTS);
const usage = { input_tokens: 50, output_tokens: 12 };
const toolUse = { type: 'tool_use', id: CALL_ID, name: 'shell', input: SHELL_ARGUMENTS };

function message(content: readonly unknown[], stopReason: string) {
  return {
    id: 'msg_e2e',
    type: 'message',
    role: 'assistant',
    model: 'claude-e2e',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
}

/** The documented event sequence of a message whose single block streams in two deltas. */
function messageEvents(
  block: Record<string, unknown>,
  deltas: readonly Record<string, unknown>[],
  stopReason: string,
): ServerSentEvent[] {
  return [
    event({
      type: 'message_start',
      message: {
        ...message([], stopReason),
        stop_reason: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    event({ type: 'ping' }),
    event({ type: 'content_block_start', index: 0, content_block: block }),
    ...deltas.map((delta) => event({ type: 'content_block_delta', index: 0, delta })),
    event({ type: 'content_block_stop', index: 0 }),
    event({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 12 },
    }),
    event({ type: 'message_stop' }),
  ];
}

describeProviderEndToEnd(
  'Anthropic Messages',
  {
    modelSpec: 'anthropic:claude-e2e',
    baseURLOf: (server) => server.origin,
    keyVariable: 'ANTHROPIC_API_KEY',
    // This SDK version sends the API key as a bearer token.
    keyHeader: 'authorization',
    streaming: {
      toolCall: {
        type: 'sse',
        events: messageEvents(
          { ...toolUse, input: {} },
          [
            { type: 'input_json_delta', partial_json: shellArguments.slice(0, 10) },
            { type: 'input_json_delta', partial_json: shellArguments.slice(10) },
          ],
          'tool_use',
        ),
      },
      finalText: {
        type: 'sse',
        events: messageEvents(
          { type: 'text', text: '' },
          [
            { type: 'text_delta', text: FINAL_TEXT.slice(0, 20) },
            { type: 'text_delta', text: FINAL_TEXT.slice(20) },
          ],
          'end_turn',
        ),
      },
    },
    blocking: {
      toolCall: { type: 'json', body: message([toolUse], 'tool_use') },
      finalText: { type: 'json', body: message([{ type: 'text', text: FINAL_TEXT }], 'end_turn') },
    },
    path: { streaming: '/v1/messages', blocking: '/v1/messages' },
    expectDeniedToolResult: (body, reason) => {
      const { messages } = body as { messages: unknown[] };
      expect(messages.slice(-2)).toEqual([
        { role: 'assistant', content: [toolUse] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: CALL_ID, content: reason, is_error: true }],
        },
      ]);
    },
  },
  {
    what: 'the API key',
    message:
      'hookwire: ANTHROPIC_API_KEY is not set: export it, or pass --base-url for a keyless local server',
  },
);
