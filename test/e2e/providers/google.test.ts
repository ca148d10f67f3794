/**
 * `hookwire run --model google:MODEL` end to end: the tool error goes back as a
 * `functionResponse` part (`response: {error}`) in the user turn answering the `functionCall`.
 */
import { expect } from 'vitest';
import {
  CALL_ID,
  FINAL_TEXT,
  SHELL_ARGUMENTS,
  describeProviderEndToEnd,
} from './provider-end-to-end.ts';

const usageMetadata = { promptTokenCount: 50, candidatesTokenCount: 12, totalTokenCount: 62 };
const functionCall = { id: CALL_ID, name: 'shell', args: SHELL_ARGUMENTS };

/** One `GenerateContentResponse` (a whole blocking answer, or one `alt=sse` chunk). */
function response(parts: readonly unknown[], finishReason?: string) {
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        index: 0,
        ...(finishReason === undefined ? {} : { finishReason }),
      },
    ],
    usageMetadata,
    modelVersion: 'gemini-e2e',
    responseId: 'resp_e2e',
  };
}

describeProviderEndToEnd(
  'Google Gemini',
  {
    modelSpec: 'google:gemini-e2e',
    baseURLOf: (server) => server.origin,
    keyVariable: 'GEMINI_API_KEY',
    keyHeader: 'x-goog-api-key',
    streaming: {
      // Gemini streams each function call whole, in one chunk.
      toolCall: { type: 'sse', events: [{ data: response([{ functionCall }], 'STOP') }] },
      finalText: {
        type: 'sse',
        events: [
          { data: response([{ text: FINAL_TEXT.slice(0, 20) }]) },
          { data: response([{ text: FINAL_TEXT.slice(20) }], 'STOP') },
        ],
      },
    },
    blocking: {
      toolCall: { type: 'json', body: response([{ functionCall }], 'STOP') },
      finalText: { type: 'json', body: response([{ text: FINAL_TEXT }], 'STOP') },
    },
    path: {
      streaming: '/v1beta/models/gemini-e2e:streamGenerateContent?alt=sse',
      blocking: '/v1beta/models/gemini-e2e:generateContent',
    },
    expectDeniedToolResult: (body, reason) => {
      const { contents } = body as { contents: unknown[] };
      expect(contents.slice(-2)).toEqual([
        { role: 'model', parts: [{ functionCall }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'shell', id: CALL_ID, response: { error: reason } } },
          ],
        },
      ]);
    },
  },
  {
    what: 'the API key',
    message:
      'hookwire: GEMINI_API_KEY or GOOGLE_API_KEY is not set: export it, or pass --base-url for a keyless local server',
  },
);
