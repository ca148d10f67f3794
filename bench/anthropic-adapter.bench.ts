/**
 * The cost of the Anthropic Messages adapter's streaming over the SDK alone: a 2,000-chunk
 * stream (message_start, a text block streamed as `content_block_delta` text deltas, then a
 * `tool_use` block whose input arrives in `input_json_delta` fragments, message_delta and
 * message_stop) served from a loopback server, iterated through `LanguageModel.stream()` versus
 * iterating the SDK's own `client.messages.create({stream: true})`. Both pay the same HTTP and
 * SSE parsing, so the ratio is what the adapter adds on top.
 */
import Anthropic from '@anthropic-ai/sdk';
import type * as AnthropicModule from '../src/adapters/providers/anthropic/index.ts';
import { startLoopbackServer } from '../test/support/loopback-server.ts';
import type { ServerSentEvent } from '../test/support/loopback-server.ts';
import { load, timing } from './built.ts';
import { compare } from './harness.ts';

const { createAnthropicModel } = await load<typeof AnthropicModule>(
  'adapters/providers/anthropic/index',
);

const chunkCount = 2_000;

/** A named Anthropic event: the SSE `event:` line repeats the payload's `type`. */
function event(data: {
  readonly type: string;
  readonly [field: string]: unknown;
}): ServerSentEvent {
  return { event: data.type, data };
}

function streamEvents(): ServerSentEvent[] {
  const toolFragments = 200;
  const events: ServerSentEvent[] = [
    event({
      type: 'message_start',
      message: {
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        model: 'claude-bench',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ];
  // After the text deltas come five events besides the tool fragments: the text block's stop,
  // the tool block's start and stop, message_delta and message_stop.
  for (let index = 0; events.length < chunkCount - toolFragments - 5; index++) {
    events.push(
      event({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: `token${index} ` },
      }),
    );
  }
  events.push(event({ type: 'content_block_stop', index: 0 }));
  events.push(
    event({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_bench', name: 'read_file', input: {} },
    }),
  );
  events.push(
    event({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"path":"' },
    }),
  );
  for (let index = 0; index < toolFragments - 2; index++) {
    events.push(
      event({
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: 'ab' },
      }),
    );
  }
  events.push(
    event({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '"}' },
    }),
  );
  events.push(event({ type: 'content_block_stop', index: 1 }));
  events.push(
    event({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: chunkCount },
    }),
  );
  events.push(event({ type: 'message_stop' }));
  return events;
}

export default async function run(): Promise<void> {
  console.log(`    ${timing()}`);
  const server = await startLoopbackServer();
  const events = streamEvents();
  server.replyAlways({ type: 'sse', events });
  const options = { apiKey: 'sk-ant-bench', baseURL: server.origin, maxRetries: 0 };
  const model = createAnthropicModel({ model: 'claude-bench', ...options });
  const client = new Anthropic(options);
  const request = {
    model: 'claude-bench',
    contents: [{ speaker: 'human' as const, blocks: [{ type: 'text' as const, text: 'Go' }] }],
  };

  try {
    let sink = 0;
    await compare(
      `anthropic messages: adapter stream() over ${events.length} events vs the SDK stream alone`,
      async () => {
        for await (const part of model.stream(request))
          if (part.type === 'finish') sink += part.response.content.blocks.length;
      },
      async () => {
        const stream = await client.messages.create({
          model: 'claude-bench',
          max_tokens: 4096,
          messages: [{ role: 'user', content: 'Go' }],
          stream: true,
        });
        for await (const received of stream) sink += received.type.length;
      },
      { rounds: 60, operationsPerSample: 3, warmupRounds: 10, limit: 1.1, unit: 'ms' },
    );
    if (sink === 0) throw new Error('benchmark consumed nothing');
  } finally {
    await server.close();
  }
}
