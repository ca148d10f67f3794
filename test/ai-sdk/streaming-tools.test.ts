/**
 * Streaming tools (`async *execute`: preliminary results, the last one is the output) through
 * hookwire's wrapped tools, against the real `ai` `streamText` and its mock language model: the
 * preliminary results still stream to the caller, PostToolUse fires once on the final value (a
 * rewrite replaces what the model sees of it), and a PreToolUse deny never starts the generator.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { isStepCount, jsonSchema, streamText, tool, type TextStreamPart, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ToolResultAction, type AgentHook } from '../../src/index.ts';
import { createHookwire } from '../../src/ai-sdk.ts';
import { group, textStream, toolOutputsOf, useHookwireFixture, usage } from './support.ts';

const fixture = useHookwireFixture(createHookwire);

/** A stream that calls `search` once. */
function toolCallStream(query: string): { stream: ReadableStream<LanguageModelV4StreamPart> } {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    {
      type: 'tool-call',
      toolCallId: 'call-1',
      toolName: 'search',
      input: JSON.stringify({ query }),
    },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage() },
  ];
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/** Calls `search` first; answers once the tool result is in. */
function searchingModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async (options: LanguageModelV4CallOptions) =>
      options.prompt.at(-1)?.role === 'tool' ? textStream(['found it']) : toolCallStream('cats'),
  });
}

/** A streaming `search` tool that logs when its generator starts and what it yields. */
function searchTool(log: string[]) {
  return tool({
    description: 'Search, reporting progress',
    inputSchema: jsonSchema<{ query: string }>({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    }),
    async *execute({ query }: { query: string }) {
      log.push(`started ${query}`);
      yield { status: 'searching' as const, hits: 0 };
      yield { status: 'searching' as const, hits: 2 };
      log.push('finished');
      yield { status: 'done' as const, hits: 3 };
    },
  });
}

type SearchResult = { status: string; hits: number };

/** The tool-result parts of a stream: each output, and whether it was preliminary. */
async function toolResults(
  stream: AsyncIterable<TextStreamPart<ToolSet>>,
): Promise<{ output: unknown; preliminary: boolean }[]> {
  const results: { output: unknown; preliminary: boolean }[] = [];
  for await (const part of stream)
    if (part.type === 'tool-result')
      results.push({ output: part.output, preliminary: part.preliminary === true });
  return results;
}

describe('streaming tools through hookwire', () => {
  it('preliminary results stream through hw.streamText; PostToolUse fires once on the final value and its rewrite is what the model sees', async () => {
    const log: string[] = [];
    const postToolUse: unknown[] = [];
    const summarise: AgentHook = {
      onToolResult(_context, event) {
        postToolUse.push(event.presentation);
        const { hits } = event.presentation as SearchResult;
        return ToolResultAction.rewrite(`${hits} hits (summarised by a hook)`);
      },
    };
    const hw = await fixture.open({ hooks: [summarise] });
    const model = searchingModel();
    const result = hw.streamText({
      model,
      tools: { search: searchTool(log) },
      prompt: 'Find cats',
      stopWhen: isStepCount(2),
    });
    expect(await toolResults(result.fullStream)).toEqual([
      { output: { status: 'searching', hits: 0 }, preliminary: true },
      { output: { status: 'searching', hits: 2 }, preliminary: true },
      { output: { status: 'done', hits: 3 }, preliminary: true },
      // The app gets the tool's own final output; the model gets the hook's rewrite.
      { output: { status: 'done', hits: 3 }, preliminary: false },
    ]);
    expect(await result.text).toBe('found it');
    expect(log).toEqual(['started cats', 'finished']);
    expect(postToolUse).toEqual([{ status: 'done', hits: 3 }]);
    expect(model.doStreamCalls).toHaveLength(2);
    expect(toolOutputsOf(model.doStreamCalls[1]!)).toEqual([
      { type: 'text', value: '3 hits (summarised by a hook)' },
    ]);
  });

  it('with no hooks, hw.wrapTools leaves a streaming tool exactly as the bare AI SDK streams it', async () => {
    const hw = await fixture.open();
    const bareLog: string[] = [];
    const bare = streamText({
      model: searchingModel(),
      tools: { search: searchTool(bareLog) },
      prompt: 'Find cats',
      stopWhen: isStepCount(2),
    });
    const wrappedLog: string[] = [];
    const wrapped = streamText({
      model: searchingModel(),
      tools: hw.wrapTools({ search: searchTool(wrappedLog) }),
      prompt: 'Find cats',
      stopWhen: isStepCount(2),
    });
    const bareResults = await toolResults(bare.stream);
    expect(bareResults.filter((entry) => entry.preliminary)).toHaveLength(3);
    expect(await toolResults(wrapped.stream)).toEqual(bareResults);
    expect(wrappedLog).toEqual(bareLog);
  });

  it('a settings-file PreToolUse deny never starts the generator; the model sees the reason', async () => {
    const guard = await fixture.project.script(
      'no-search.sh',
      'cat > /dev/null; echo "searching is off today" >&2; exit 2',
    );
    const settings = await fixture.project.settings('hooks.json', {
      PreToolUse: [group([{ command: guard }], { matcher: 'search' })],
    });
    const hw = await fixture.open({ settings: [settings] });
    const log: string[] = [];
    const model = searchingModel();
    const result = streamText({
      model: hw.wrapModel(model),
      tools: hw.wrapTools({ search: searchTool(log) }),
      prompt: 'Find cats',
      stopWhen: isStepCount(2),
    });
    const errors: string[] = [];
    for await (const part of result.stream)
      if (part.type === 'tool-error') errors.push(String(part.error));
    expect(log).toEqual([]);
    expect(errors).toEqual([expect.stringContaining('searching is off today')]);
    expect(toolOutputsOf(model.doStreamCalls[1]!)).toEqual([
      { type: 'error-text', value: expect.stringContaining('searching is off today') as string },
    ]);
  });

  it('a permission deny rule refuses a streaming tool before its generator starts', async () => {
    const settings = join(fixture.project.dir, 'settings.json');
    await writeFile(settings, JSON.stringify({ permissions: { deny: ['search'] } }));
    const hw = await fixture.open({ settings: [settings] });
    const log: string[] = [];
    const model = searchingModel();
    const result = hw.streamText({
      model,
      tools: { search: searchTool(log) },
      prompt: 'Find cats',
      stopWhen: isStepCount(2),
    });
    expect(await toolResults(result.fullStream)).toEqual([]);
    expect(log).toEqual([]);
    expect(toolOutputsOf(model.doStreamCalls[1]!)).toEqual([
      { type: 'error-text', value: expect.stringContaining('Permission denied') as string },
    ]);
  });

  it('a generator that throws part-way fires PostToolUseFailure, whose context reaches the model', async () => {
    const failures: string[] = [];
    const hw = await fixture.open({
      hooks: [
        {
          onToolFailure(_context, event) {
            failures.push(event.error);
            return { kind: 'continue', additionalContext: 'try a narrower query' };
          },
        },
      ],
    });
    const model = searchingModel();
    const flaky = tool({
      description: 'Search, failing after the first page',
      inputSchema: jsonSchema<{ query: string }>({
        type: 'object',
        properties: { query: { type: 'string' } },
        required: ['query'],
      }),
      async *execute() {
        yield { status: 'searching', hits: 1 };
        throw new Error('index unavailable');
      },
    });
    const result = hw.streamText({
      model,
      tools: { search: flaky },
      prompt: 'Find cats',
      stopWhen: isStepCount(2),
    });
    expect(await toolResults(result.fullStream)).toEqual([
      { output: { status: 'searching', hits: 1 }, preliminary: true },
    ]);
    expect(failures).toEqual(['index unavailable']);
    expect(toolOutputsOf(model.doStreamCalls[1]!)).toEqual([
      {
        type: 'error-text',
        value: expect.stringMatching(/index unavailable\ntry a narrower query/) as string,
      },
    ]);
  });
});
