/**
 * The cost of the OpenAI Chat Completions adapter's streaming over the SDK alone: a 2,000-chunk
 * stream (text deltas, then two tool calls in fragments, a finish and a usage chunk) served from
 * a loopback server, iterated through `LanguageModel.stream()` versus iterating the SDK's own
 * `client.chat.completions.create({stream: true})`. Both pay the same HTTP and SSE parsing, so
 * the ratio is what the adapter adds on top.
 */
import OpenAI from 'openai';
import type * as OpenAIModule from '../src/adapters/providers/openai/index.ts';
import { startLoopbackServer } from '../test/support/loopback-server.ts';
import type { ServerSentEvent } from '../test/support/loopback-server.ts';
import { load, timing } from './built.ts';
import { compare } from './harness.ts';

const { createOpenAIChatModel } = await load<typeof OpenAIModule>(
  'adapters/providers/openai/index',
);

const chunkCount = 2_000;

function chunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): ServerSentEvent {
  return {
    data: {
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'gpt-bench',
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    },
  };
}

function streamEvents(): ServerSentEvent[] {
  const events: ServerSentEvent[] = [chunk({ role: 'assistant', content: '' })];
  const toolFragments = 200;
  for (let index = 0; events.length < chunkCount - toolFragments - 4; index++) {
    events.push(chunk({ content: `token${index} ` }));
  }
  events.push(
    chunk({
      tool_calls: [
        {
          index: 0,
          id: 'call_0',
          type: 'function',
          function: { name: 'read_file', arguments: '{"path":"' },
        },
      ],
    }),
  );
  events.push(
    chunk({
      tool_calls: [
        {
          index: 1,
          id: 'call_1',
          type: 'function',
          function: { name: 'list_dir', arguments: '{"path":"' },
        },
      ],
    }),
  );
  for (let index = 0; index < toolFragments - 2; index++) {
    events.push(chunk({ tool_calls: [{ index: index % 2, function: { arguments: 'ab' } }] }));
  }
  events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '"}' } }] }));
  events.push(chunk({ tool_calls: [{ index: 1, function: { arguments: '"}' } }] }));
  events.push(chunk({}, 'tool_calls'));
  events.push({
    data: {
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'gpt-bench',
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: chunkCount, total_tokens: chunkCount + 10 },
    },
  });
  events.push({ data: '[DONE]' });
  return events;
}

export default async function run(): Promise<void> {
  console.log(`    ${timing()}`);
  const server = await startLoopbackServer();
  const events = streamEvents();
  server.replyAlways({ type: 'sse', events });
  const options = { apiKey: 'sk-bench', baseURL: server.baseURL, maxRetries: 0 };
  const model = createOpenAIChatModel({ model: 'gpt-bench', ...options });
  const client = new OpenAI(options);
  const request = {
    model: 'gpt-bench',
    contents: [{ speaker: 'human' as const, blocks: [{ type: 'text' as const, text: 'Go' }] }],
  };

  try {
    let sink = 0;
    await compare(
      `openai chat: adapter stream() over ${events.length - 1} chunks vs the SDK stream alone`,
      async () => {
        for await (const part of model.stream(request))
          if (part.type === 'finish') sink += part.response.content.blocks.length;
      },
      async () => {
        const stream = await client.chat.completions.create({
          model: 'gpt-bench',
          messages: [{ role: 'user', content: 'Go' }],
          stream: true,
          stream_options: { include_usage: true },
        });
        for await (const received of stream) sink += received.choices.length;
      },
      { rounds: 30, warmupRounds: 5, limit: 1.1, unit: 'ms' },
    );
    if (sink === 0) throw new Error('benchmark consumed nothing');
  } finally {
    await server.close();
  }
}
