/**
 * The Chat Completions wire of the end-to-end contract, shared by `openai:` and
 * `openai-compatible:`: the tool error goes back as a `tool` role message answering the
 * assistant's `tool_calls`.
 */
import { expect } from 'vitest';
import { chunk, completion, done, usageChunk } from '../../fixtures/openai/chat-scenarios.ts';
import {
  CALL_ID,
  FINAL_TEXT,
  SHELL_ARGUMENTS,
  type ProviderEndToEndCase,
} from './provider-end-to-end.ts';

const usage = { prompt_tokens: 50, completion_tokens: 12, total_tokens: 62 };
const shellArguments = JSON.stringify(SHELL_ARGUMENTS);

/** Chat Completions answers: the shell call (arguments in two fragments), then the final text. */
export const chatCompletionsCase: Omit<ProviderEndToEndCase, 'modelSpec'> = {
  baseURLOf: (server) => server.baseURL,
  keyVariable: 'OPENAI_API_KEY',
  keyHeader: 'authorization',
  streaming: {
    toolCall: {
      type: 'sse',
      events: [
        chunk({ role: 'assistant', content: null }),
        chunk({
          tool_calls: [
            {
              index: 0,
              id: CALL_ID,
              type: 'function',
              function: { name: 'shell', arguments: shellArguments.slice(0, 10) },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: shellArguments.slice(10) } }] }),
        chunk({}, 'tool_calls'),
        usageChunk(usage),
        done,
      ],
    },
    finalText: {
      type: 'sse',
      events: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: FINAL_TEXT.slice(0, 20) }),
        chunk({ content: FINAL_TEXT.slice(20) }),
        chunk({}, 'stop'),
        usageChunk(usage),
        done,
      ],
    },
  },
  blocking: {
    toolCall: {
      type: 'json',
      body: completion(
        {
          tool_calls: [
            {
              id: CALL_ID,
              type: 'function',
              function: { name: 'shell', arguments: shellArguments },
            },
          ],
        },
        'tool_calls',
        usage,
      ),
    },
    finalText: { type: 'json', body: completion({ content: FINAL_TEXT }, 'stop', usage) },
  },
  path: { streaming: '/v1/chat/completions', blocking: '/v1/chat/completions' },
  expectDeniedToolResult: (body, reason) => {
    const { messages } = body as { messages: unknown[] };
    expect(messages.slice(-2)).toEqual([
      expect.objectContaining({
        role: 'assistant',
        tool_calls: [
          expect.objectContaining({
            id: CALL_ID,
            type: 'function',
            function: { name: 'shell', arguments: shellArguments },
          }),
        ],
      }),
      { role: 'tool', tool_call_id: CALL_ID, content: `Error: ${reason}` },
    ]);
  },
};
