/**
 * The cost of the Google Gemini adapter's streaming over the SDK alone: a 2,000-chunk
 * `streamGenerateContent?alt=sse` response (text parts, one per chunk, each chunk carrying usage
 * metadata, model version and response id as Gemini sends them, then a chunk with a function
 * call and the finish reason) served from a loopback server, iterated through
 * `LanguageModel.stream()` versus iterating the SDK's own `ai.models.generateContentStream()`.
 * Both pay the same HTTP, SSE parsing and SDK response conversion, so the ratio is what the
 * adapter adds on top.
 */
import { GoogleGenAI } from '@google/genai';
import type * as GoogleModule from '../src/adapters/providers/google/index.ts';
import { startLoopbackServer } from '../test/support/loopback-server.ts';
import type { ServerSentEvent } from '../test/support/loopback-server.ts';
import { load, timing } from './built.ts';
import { compare } from './harness.ts';

const { createGoogleModel, GEMINI_API_VERSION } = await load<typeof GoogleModule>(
  'adapters/providers/google/index',
);

const chunkCount = 2_000;

function chunk(
  parts: readonly Record<string, unknown>[],
  finishReason?: string,
  candidatesTokenCount = 1,
): ServerSentEvent {
  return {
    data: {
      candidates: [
        {
          content: { role: 'model', parts },
          index: 0,
          ...(finishReason === undefined ? {} : { finishReason }),
        },
      ],
      usageMetadata: {
        promptTokenCount: 10,
        candidatesTokenCount,
        totalTokenCount: 10 + candidatesTokenCount,
      },
      modelVersion: 'gemini-bench',
      responseId: 'resp_bench',
    },
  };
}

function streamEvents(): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  for (let index = 0; events.length < chunkCount - 1; index++) {
    events.push(chunk([{ text: `token${index} ` }], undefined, index + 1));
  }
  events.push(
    chunk(
      [{ functionCall: { id: 'call_bench', name: 'read_file', args: { path: 'README.md' } } }],
      'STOP',
      chunkCount,
    ),
  );
  return events;
}

export default async function run(): Promise<void> {
  console.log(`    ${timing()}`);
  const server = await startLoopbackServer();
  const events = streamEvents();
  server.replyAlways({ type: 'sse', events });
  const model = createGoogleModel({
    model: 'gemini-bench',
    apiKey: 'gemini-bench-key',
    baseURL: server.origin,
    maxRetries: 0,
  });
  const ai = new GoogleGenAI({
    apiKey: 'gemini-bench-key',
    apiVersion: GEMINI_API_VERSION,
    vertexai: false,
    httpOptions: { baseUrl: server.origin },
  });
  const request = {
    model: 'gemini-bench',
    contents: [{ speaker: 'human' as const, blocks: [{ type: 'text' as const, text: 'Go' }] }],
  };

  try {
    let sink = 0;
    await compare(
      `google gemini: adapter stream() over ${events.length} chunks vs the SDK stream alone`,
      async () => {
        for await (const part of model.stream(request))
          if (part.type === 'finish') sink += part.response.content.blocks.length;
      },
      async () => {
        const stream = await ai.models.generateContentStream({
          model: 'gemini-bench',
          contents: [{ role: 'user', parts: [{ text: 'Go' }] }],
        });
        for await (const received of stream) sink += received.candidates?.length ?? 0;
      },
      { rounds: 60, warmupRounds: 10, limit: 1.1, unit: 'ms' },
    );
    if (sink === 0) throw new Error('benchmark consumed nothing');
  } finally {
    await server.close();
  }
}
