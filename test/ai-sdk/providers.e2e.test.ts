/**
 * End to end: an AI SDK app on the official `@ai-sdk/openai` and `@ai-sdk/anthropic` providers,
 * pointed at loopback servers on 127.0.0.1, gains hookwire's hooks from a settings file — real
 * hook processes, real HTTP, the real `ai` loop.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { isStepCount, jsonSchema, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StopAction } from '../../src/index.ts';
import { createHookwire } from '../../src/ai-sdk.ts';
import {
  startLoopbackServer,
  type LoopbackServer,
  type ServerSentEvent,
} from '../support/loopback-server.ts';
import { group, useHookwireFixture } from './support.ts';

let server: LoopbackServer;

beforeAll(async () => {
  // The Anthropic provider warns about unknown model ids; the test's ids are made up.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  server = await startLoopbackServer();
});

afterAll(async () => {
  await server.close();
});

const fixture = useHookwireFixture(createHookwire, () => {
  server.reset();
});

const openai = () => createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' });
const anthropic = () => createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' });

function chatCompletion(message: Record<string, unknown>, finishReason: string) {
  return {
    type: 'json' as const,
    body: {
      id: 'chatcmpl-e2e',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gpt-e2e',
      choices: [
        { index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason },
      ],
      usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
    },
  };
}

function anthropicMessage(text: string) {
  return {
    type: 'json' as const,
    body: {
      id: 'msg_e2e',
      type: 'message',
      role: 'assistant',
      model: 'claude-e2e',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 5 },
    },
  };
}

/** An Anthropic text stream in `chunks`. */
function anthropicStream(chunks: readonly string[]): { type: 'sse'; events: ServerSentEvent[] } {
  const event = (data: { type: string; [field: string]: unknown }): ServerSentEvent => ({
    event: data.type,
    data,
  });
  return {
    type: 'sse',
    events: [
      event({
        type: 'message_start',
        message: {
          id: 'msg_e2e',
          type: 'message',
          role: 'assistant',
          model: 'claude-e2e',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 20, output_tokens: 1 },
        },
      }),
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      ...chunks.map((text) =>
        event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
      ),
      event({ type: 'content_block_stop', index: 0 }),
      event({
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 5 },
      }),
      event({ type: 'message_stop' }),
    ],
  };
}

interface ChatRequestBody {
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
}

describe('@ai-sdk/openai on a loopback server', () => {
  it('a settings-file guard denies a tool call: execute never runs, the next request carries the denial', async () => {
    const guard = await fixture.project.script(
      'guard.sh',
      'cat > /dev/null; echo "deleting files is not allowed" >&2; exit 2',
    );
    const settings = await fixture.project.settings('hooks.json', {
      PreToolUse: [group([{ command: guard }], { matcher: 'delete_file' })],
    });
    const hw = await fixture.open({ settings: [settings] });
    server.reply(
      chatCompletion(
        {
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'delete_file', arguments: '{"path":"important.txt"}' },
            },
          ],
        },
        'tool_calls',
      ),
      chatCompletion({ content: 'I could not delete it.' }, 'stop'),
    );
    const ran: unknown[] = [];
    const result = await hw.generateText({
      model: openai().chat('gpt-e2e'),
      tools: {
        delete_file: tool({
          description: 'Delete a file',
          inputSchema: jsonSchema<{ path: string }>({
            type: 'object',
            properties: { path: { type: 'string' } },
            required: ['path'],
          }),
          execute: async (input: { path: string }) => {
            ran.push(input);
            return 'deleted';
          },
        }),
      },
      prompt: 'Delete important.txt',
      stopWhen: isStepCount(3),
    });
    expect(ran).toEqual([]);
    expect(result.text).toBe('I could not delete it.');
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1]!.body as ChatRequestBody;
    const toolMessage = second.messages.find((message) => message.role === 'tool');
    expect(JSON.stringify(toolMessage?.content)).toContain('deleting files is not allowed');
  });

  it('aborting a streaming call fires Interrupt (and closes the HTTP request)', async () => {
    const interrupts: string[] = [];
    const hw = await fixture.open({
      hooks: [
        {
          onInterrupt(_context, event) {
            interrupts.push(event.prompt);
            return { kind: 'continue' };
          },
        },
      ],
    });
    server.reply({
      type: 'sse',
      hold: true,
      events: [
        {
          data: {
            id: 'chatcmpl-e2e',
            object: 'chat.completion.chunk',
            created: 1_700_000_000,
            model: 'gpt-e2e',
            choices: [
              { index: 0, delta: { role: 'assistant', content: 'Working' }, finish_reason: null },
            ],
          },
        },
      ],
    });
    const controller = new AbortController();
    const result = hw.streamText({
      model: openai().chat('gpt-e2e'),
      prompt: 'A long task',
      abortSignal: controller.signal,
    });
    const closed = server.clientClosedHeldStream();
    for await (const chunk of result.textStream) {
      expect(chunk).toBe('Working');
      controller.abort('user pressed stop');
    }
    await closed;
    await result.consumeStream().catch(() => undefined);
    expect(interrupts).toEqual(['A long task']);
  });
});

describe('@ai-sdk/anthropic on a loopback server', () => {
  it('a BeforeModel synthetic response from a command hook: no request reaches the server', async () => {
    const respond = await fixture.project.script(
      'respond.sh',
      `cat > /dev/null; printf '%s' '{"hookSpecificOutput":{"hookEventName":"BeforeModel","llm_response":{"content":{"speaker":"ai","blocks":[{"type":"text","text":"answered by policy"}]},"finishReason":"stop"}}}'`,
    );
    const settings = await fixture.project.settings('hooks.json', {
      BeforeModel: [group([{ command: respond }])],
    });
    const hw = await fixture.open({ settings: [settings] });
    const result = await hw.generateText({ model: anthropic()('claude-e2e'), prompt: 'Hi' });
    expect(result.text).toBe('answered by policy');
    expect(server.requests).toHaveLength(0);
  });

  it('a Stop hook continues once: the second request ends with the reason as a user message', async () => {
    const hw = await fixture.open({
      hooks: [
        {
          onStop: (_context, event) =>
            event.stopHookActive ? StopAction.continue() : StopAction.block('Add a summary line.'),
        },
      ],
    });
    server.reply(anthropicMessage('Draft.'), anthropicMessage('Draft.\nSummary: done.'));
    const result = await hw.generateText({ model: anthropic()('claude-e2e'), prompt: 'Write it' });
    expect(result.text).toBe('Draft.\nSummary: done.');
    expect(server.requests).toHaveLength(2);
    const messages = (server.requests[1]!.body as ChatRequestBody).messages;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(messages.at(-1)?.content)).toContain('Add a summary line.');
  });

  it('a command hook redacts each streamed chunk (AfterModel per chunk)', async () => {
    const redact = await fixture.project.script(
      'redact.sh',
      `exec node -e '
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const event = JSON.parse(input);
  const blocks = event.llm_response.content.blocks;
  const text = blocks.map((block) => block.text ?? "").join("");
  if (!/[0-9]/.test(text)) return;
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "AfterModel",
    llm_response: { content: { speaker: "ai", blocks: [{ type: "text", text: text.replace(/[0-9]/g, "#") }] } } } }));
});'`,
    );
    const settings = await fixture.project.settings('hooks.json', {
      AfterModel: [group([{ command: redact }])],
    });
    const hw = await fixture.open({ settings: [settings] });
    server.reply(anthropicStream(['PIN ', '1234', ' ok']));
    const result = hw.streamText({ model: anthropic()('claude-e2e'), prompt: 'My PIN?' });
    const chunks: string[] = [];
    for await (const chunk of result.textStream) chunks.push(chunk);
    expect(chunks).toEqual(['PIN ', '####', ' ok']);
    expect(await result.text).toBe('PIN #### ok');
  });
});
