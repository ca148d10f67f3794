/**
 * `hw.streamText` against the real `ai` package and its mock language model: AfterModel per
 * chunk, a synthetic response as a stream, Stop continuing in the same stream, abort → Interrupt.
 */
import { MockLanguageModelV4 } from 'ai/test';
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  CompletionCallAction,
  ModelOutputAction,
  StopAction,
  textOf,
  type AgentHook,
} from '../../src/index.ts';
import { createHookwire, HookDeniedError, type Hookwire } from '../../src/ai-sdk.ts';
import { textStream, userTextsOf, useHookwireFixture } from './support.ts';

const fixture = useHookwireFixture(createHookwire);
const open = (hooks: AgentHook[]): Promise<Hookwire> => fixture.open({ hooks });

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const redactDigits: AgentHook = {
  name: 'redact digits',
  onModelOutput(_context, event) {
    if (!event.isChunk || event.isTerminal) return ModelOutputAction.continue();
    const text = textOf(event.response.content);
    return /\d/.test(text)
      ? ModelOutputAction.replace({
          content: { speaker: 'ai', blocks: [{ type: 'text', text: text.replace(/\d/g, '#') }] },
        })
      : ModelOutputAction.continue();
  },
};

describe('hw.streamText', () => {
  it('streams what the bare AI SDK streams when no hook is configured', async () => {
    const instance = await open([]);
    const model = new MockLanguageModelV4({ doStream: textStream(['Hel', 'lo']) });
    const result = instance.streamText({ model, prompt: 'Hi' });
    expect(await collect(result.textStream)).toEqual(['Hel', 'lo']);
    expect(await result.text).toBe('Hello');
    const bare = streamText({
      model: new MockLanguageModelV4({ doStream: textStream(['Hel', 'lo']) }),
      prompt: 'Hi',
    });
    expect(await bare.text).toBe('Hello');
  });

  it('AfterModel sees each text chunk and its replacement is what streams on', async () => {
    const seen: string[] = [];
    const instance = await open([
      {
        onModelOutput(_context, event) {
          if (event.isChunk && !event.isTerminal) seen.push(textOf(event.response.content));
          return ModelOutputAction.continue();
        },
      },
      redactDigits,
    ]);
    const model = new MockLanguageModelV4({
      doStream: textStream(['card ', '4111 ', '1111', ' ok']),
    });
    const result = instance.streamText({ model, prompt: 'Show the card' });
    expect(await collect(result.textStream)).toEqual(['card ', '#### ', '####', ' ok']);
    expect(seen).toEqual(['card ', '4111 ', '1111', ' ok']);
    expect(await result.text).toBe('card #### #### ok');
  });

  it('an AfterModel deny on a chunk ends the stream with HookDeniedError', async () => {
    const instance = await open([
      {
        onModelOutput: (_context, event) =>
          textOf(event.response.content).includes('secret')
            ? ModelOutputAction.deny('leaked a secret')
            : ModelOutputAction.continue(),
      },
    ]);
    const model = new MockLanguageModelV4({ doStream: textStream(['a ', 'secret', ' b']) });
    const result = instance.streamText({ model, prompt: 'Hi' });
    const parts: string[] = [];
    const errors: unknown[] = [];
    for await (const part of result.fullStream) {
      parts.push(part.type);
      if (part.type === 'error') errors.push(part.error);
    }
    expect(errors).toEqual([expect.any(HookDeniedError)]);
    expect(parts).not.toContain('finish-step');
    await expect(result.text).rejects.toBeInstanceOf(HookDeniedError);
  });

  it('a BeforeModel synthetic response streams without calling the model', async () => {
    const instance = await open([
      {
        onCompletionCall: () =>
          CompletionCallAction.respond({
            content: { speaker: 'ai', blocks: [{ type: 'text', text: 'from the cache' }] },
            finishReason: 'stop',
          }),
      },
    ]);
    const model = new MockLanguageModelV4({ doStream: textStream(['never']) });
    const result = instance.streamText({ model, prompt: 'Hi' });
    expect(await collect(result.textStream)).toEqual(['from the cache']);
    expect(model.doStreamCalls).toHaveLength(0);
  });

  it('a Stop block streams a second round in the same stream, with the reason as the user message', async () => {
    const instance = await open([
      {
        onStop: (_context, event) =>
          event.stopHookActive ? StopAction.continue() : StopAction.block('Now in French.'),
      },
    ]);
    const model = new MockLanguageModelV4({
      doStream: [textStream(['Hello']), textStream(['Bonjour'])],
    });
    const result = instance.streamText({ model, prompt: 'Greet me' });
    expect(await collect(result.textStream)).toEqual(['Hello', 'Bonjour']);
    expect(await result.text).toBe('Bonjour');
    expect((await result.rounds).length).toBe(2);
    expect(userTextsOf(model.doStreamCalls[1]!)).toEqual(['Greet me', 'Now in French.']);
    expect((await result.responseMessages).map((message) => message.role)).toEqual([
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('aborting the stream fires Interrupt', async () => {
    const interrupts: string[] = [];
    const instance = await open([
      {
        onInterrupt(_context, event) {
          interrupts.push(event.prompt);
          return { kind: 'continue' };
        },
      },
    ]);
    const controller = new AbortController();
    const model = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => ({
        stream: new ReadableStream({
          start(stream) {
            stream.enqueue({ type: 'stream-start', warnings: [] });
            stream.enqueue({ type: 'text-start', id: 't' });
            stream.enqueue({ type: 'text-delta', id: 't', delta: 'working' });
            abortSignal?.addEventListener('abort', () => {
              stream.error(abortSignal.reason);
            });
          },
        }),
      }),
    });
    const result = instance.streamText({
      model,
      prompt: 'Long task',
      abortSignal: controller.signal,
    });
    for await (const chunk of result.textStream) {
      expect(chunk).toBe('working');
      controller.abort('user pressed stop');
    }
    await result.consumeStream().catch(() => undefined);
    expect(interrupts).toEqual(['Long task']);
  });
});
