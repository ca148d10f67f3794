/**
 * What `hookwire/ai-sdk` costs an AI SDK app with no hooks configured: one `generateText` call
 * of two steps (the model calls a tool, the tool runs, the model answers) through
 * `hw.generateText` — the wrapped model (middleware) and tools, the turn around the call — versus
 * the bare `generateText` of the `ai` package on the same mock model and tool. The model answers
 * at once, so the ratio is hookwire's overhead over the AI SDK's own per-call work (a real model
 * call adds hundreds of milliseconds to both sides). It times the built `dist/` users import
 * when it exists (the sources otherwise), and prints the load average beside the figures.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { generateText, isStepCount, jsonSchema, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type * as AiSdkEntry from '../src/ai-sdk.ts';
import { load, timing } from './built.ts';
import { compare } from './harness.ts';

const { createHookwire } = await load<typeof AiSdkEntry>('ai-sdk');

const usage: LanguageModelV4GenerateResult['usage'] = {
  inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 20, text: 20, reasoning: undefined },
};

/** Calls `lookup` when the last message is the user's, answers once the tool result is in. */
function answer(options: LanguageModelV4CallOptions): LanguageModelV4GenerateResult {
  const last = options.prompt.at(-1);
  return last?.role === 'tool'
    ? {
        content: [{ type: 'text', text: 'The answer is 42, according to the lookup.' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      }
    : {
        content: [
          {
            type: 'tool-call',
            toolCallId: 'call-1',
            toolName: 'lookup',
            input: '{"query":"the answer"}',
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
}

export default async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'hookwire-bench-ai-sdk-'));
  // No settings anywhere: an empty home, no managed policy, a project without .hookwire/.
  const hw = await createHookwire({
    cwd: dir,
    env: { HOOKWIRE_HOME: join(dir, 'home'), HOOKWIRE_MANAGED_SETTINGS: join(dir, 'none.json') },
  });
  try {
    const model = new MockLanguageModelV4({ doGenerate: async (options) => answer(options) });
    const tools = {
      lookup: tool({
        description: 'Look something up',
        inputSchema: jsonSchema<{ query: string }>({
          type: 'object',
          properties: { query: { type: 'string' } },
          required: ['query'],
        }),
        execute: async ({ query }: { query: string }) => ({ query, result: 42 }),
      }),
    };
    const options = { model, tools, prompt: 'What is the answer?', stopWhen: isStepCount(2) };
    // The mock records every call: empty its logs so memory stays flat across the rounds.
    const forget = (): void => {
      model.doGenerateCalls.length = 0;
    };
    const hwCall = async (): Promise<void> => {
      await hw.generateText(options);
      forget();
    };
    const bareCall = async (): Promise<void> => {
      await generateText(options);
      forget();
    };
    const wrappedModel = hw.wrapModel(model);
    const wrappedTools = hw.wrapTools(tools);
    const wrappedCall = async (): Promise<void> => {
      await generateText({ ...options, model: wrappedModel, tools: wrappedTools });
      forget();
    };
    console.log(`    ${timing()}`);
    // Many short samples, interleaved: a shared machine's bursts hit both sides alike and the median
    // shrugs them off.
    const settings = { rounds: 201, operationsPerSample: 16, warmupRounds: 10, limit: 1.05 };
    // Elapsed time is what users feel; this process's CPU time is what a machine shared with
    // other work disturbs least (everything here is in-process work). Both are reported.
    for (const clock of ['wall', 'cpu'] as const) {
      await compare(
        `generateText, 2 steps (tool call + answer), no hooks configured: hw.generateText vs bare generateText [${clock} time]`,
        hwCall,
        bareCall,
        { ...settings, clock },
      );
      await compare(
        `generateText with hw.wrapModel(model) + hw.wrapTools(tools), no hooks: vs bare [${clock} time]`,
        wrappedCall,
        bareCall,
        { ...settings, clock },
      );
    }
    const load = loadavg().map((value) => value.toFixed(2));
    console.log(`    load average ${load.join(' ')} on ${availableParallelism()} cores`);
  } finally {
    await hw.close();
    await rm(dir, { recursive: true, force: true });
  }
}
