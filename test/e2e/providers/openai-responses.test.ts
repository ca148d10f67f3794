/**
 * `hookwire run --model openai-responses:MODEL` end to end: the tool error goes back as a
 * `function_call_output` item answering the `function_call` item.
 */
import { expect } from 'vitest';
import {
  callItem,
  event,
  messageItem,
  responseObject,
  wireUsage,
} from '../../fixtures/openai/responses-scenarios.ts';
import {
  CALL_ID,
  FINAL_TEXT,
  SHELL_ARGUMENTS,
  describeProviderEndToEnd,
} from './provider-end-to-end.ts';

const shellArguments = JSON.stringify(SHELL_ARGUMENTS);
const shellCall = callItem('fc_shell', CALL_ID, 'shell', shellArguments);
const finalMessage = messageItem(FINAL_TEXT);

describeProviderEndToEnd(
  'OpenAI Responses',
  {
    modelSpec: 'openai-responses:gpt-e2e',
    baseURLOf: (server) => server.baseURL,
    keyVariable: 'OPENAI_API_KEY',
    keyHeader: 'authorization',
    streaming: {
      toolCall: {
        type: 'sse',
        events: [
          event({ type: 'response.created', response: responseObject('in_progress', []) }),
          event({
            type: 'response.output_item.added',
            output_index: 0,
            item: { ...callItem('fc_shell', CALL_ID, 'shell', ''), status: 'in_progress' },
          }),
          event({
            type: 'response.function_call_arguments.delta',
            output_index: 0,
            item_id: 'fc_shell',
            delta: shellArguments.slice(0, 10),
          }),
          event({
            type: 'response.function_call_arguments.delta',
            output_index: 0,
            item_id: 'fc_shell',
            delta: shellArguments.slice(10),
          }),
          event({
            type: 'response.function_call_arguments.done',
            output_index: 0,
            item_id: 'fc_shell',
            arguments: shellArguments,
          }),
          event({ type: 'response.output_item.done', output_index: 0, item: shellCall }),
          event({
            type: 'response.completed',
            response: responseObject('completed', [shellCall], { usage: wireUsage }),
          }),
        ],
      },
      finalText: {
        type: 'sse',
        events: [
          event({ type: 'response.created', response: responseObject('in_progress', []) }),
          event({
            type: 'response.output_item.added',
            output_index: 0,
            item: { ...messageItem(''), status: 'in_progress', content: [] },
          }),
          event({
            type: 'response.content_part.added',
            output_index: 0,
            item_id: 'msg_1',
            content_index: 0,
            part: { type: 'output_text', text: '', annotations: [] },
          }),
          event({
            type: 'response.output_text.delta',
            output_index: 0,
            item_id: 'msg_1',
            content_index: 0,
            delta: FINAL_TEXT,
          }),
          event({
            type: 'response.output_text.done',
            output_index: 0,
            item_id: 'msg_1',
            content_index: 0,
            text: FINAL_TEXT,
          }),
          event({ type: 'response.output_item.done', output_index: 0, item: finalMessage }),
          event({
            type: 'response.completed',
            response: responseObject('completed', [finalMessage], { usage: wireUsage }),
          }),
        ],
      },
    },
    blocking: {
      toolCall: {
        type: 'json',
        body: responseObject('completed', [shellCall], { usage: wireUsage }),
      },
      finalText: {
        type: 'json',
        body: responseObject('completed', [finalMessage], { usage: wireUsage }),
      },
    },
    path: { streaming: '/v1/responses', blocking: '/v1/responses' },
    expectDeniedToolResult: (body, reason) => {
      const { input } = body as { input: unknown[] };
      expect(input.slice(-2)).toEqual([
        expect.objectContaining({
          type: 'function_call',
          call_id: CALL_ID,
          name: 'shell',
          arguments: shellArguments,
        }),
        { type: 'function_call_output', call_id: CALL_ID, output: `Error: ${reason}` },
      ]);
    },
  },
  {
    what: 'the API key',
    message:
      'hookwire: OPENAI_API_KEY is not set: export it, or pass --base-url for a keyless local server',
  },
);
