/**
 * `hw.generateText` and `hw.streamText` as hosts: the real `ai` package with its mock language
 * model (`ai/test`) answering from the scenario's script, the scenario's tools as AI SDK tools,
 * the hook as an in-process hook of `createHookwire`; the turn's end read back from the
 * instance's transcript.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';
import { isStepCount, jsonSchema, tool, type ToolSet } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createHookwire } from '../../../src/ai-sdk.ts';
import { readTranscript } from '../../../src/loop/index.ts';
import type { Answer, HostOutcome, Scenario } from '../scenarios.ts';
import { turnEndOf, type Project } from './shared.ts';

const usage: LanguageModelV4GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

// The raw finish reason is left out, as the scripted model leaves it out: both hosts then
// describe a failed answer the same way.
const unified = (answer: Answer): LanguageModelV4GenerateResult['finishReason'] => ({
  unified: 'call' in answer ? 'tool-calls' : answer.finish === 'safety' ? 'content-filter' : 'stop',
  raw: undefined,
});

function generated(answer: Answer): LanguageModelV4GenerateResult {
  const content: LanguageModelV4GenerateResult['content'] =
    'call' in answer
      ? [
          {
            type: 'tool-call',
            toolCallId: answer.call.id,
            toolName: answer.call.name,
            input: JSON.stringify(answer.call.args),
          },
        ]
      : [{ type: 'text', text: answer.text }];
  return { content, finishReason: unified(answer), usage, warnings: [] };
}

function streamed(answer: Answer): { stream: ReadableStream<LanguageModelV4StreamPart> } {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if ('call' in answer)
    parts.push({
      type: 'tool-call',
      toolCallId: answer.call.id,
      toolName: answer.call.name,
      input: JSON.stringify(answer.call.args),
    });
  else
    parts.push(
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: answer.text },
      { type: 'text-end', id: 't' },
    );
  parts.push({ type: 'finish', finishReason: unified(answer), usage });
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

function tools(ran: unknown[], abort: () => void): ToolSet {
  const object = jsonSchema<Record<string, unknown>>({
    type: 'object',
    properties: { text: { type: 'string' } },
  });
  return {
    echo: tool({
      inputSchema: object,
      execute: async (input: Record<string, unknown>) => {
        ran.push(input);
        return input;
      },
    }),
    explode: tool({
      inputSchema: object,
      execute: async (input: Record<string, unknown>): Promise<Record<string, unknown>> => {
        ran.push(input);
        throw new Error('the disk is on fire');
      },
    }),
    halt: tool({
      inputSchema: object,
      execute: (input: Record<string, unknown>, { abortSignal }) => {
        ran.push(input);
        abort();
        return new Promise<Record<string, unknown>>((_resolve, reject) => {
          if (abortSignal?.aborted === true) reject(new Error('aborted'));
          abortSignal?.addEventListener('abort', () => {
            reject(new Error('aborted'));
          });
        });
      },
    }),
  };
}

function outputLines(name: string, output: LanguageModelV4ToolResultOutput): string[] {
  const split = (prefix: string, text: string): string[] => {
    const [first = '', ...rest] = text.split('\n');
    return [`${prefix}${first}`, ...rest.map((line) => `  + ${line}`)];
  };
  switch (output.type) {
    case 'json':
      return [`tool ${name}: ${JSON.stringify(output.value)}`];
    case 'text':
      return split(`tool ${name}: `, output.value);
    case 'error-text':
      return split(`tool ${name} error: `, output.value);
    case 'error-json':
      return [`tool ${name} error: ${JSON.stringify(output.value)}`];
    case 'execution-denied':
      return split(`tool ${name} error: `, output.reason ?? '');
    case 'content': {
      const texts = output.value.flatMap((part) => (part.type === 'text' ? [part.text] : []));
      return [`tool ${name}: ${texts[0] ?? ''}`, ...texts.slice(1).map((text) => `  + ${text}`)];
    }
  }
}

/** What the model received after its previous answer, normalised (see `HostOutcome.seen`). */
function seenOf(prompt: LanguageModelV4Prompt): string[] {
  let start = prompt.length;
  while (start > 0 && prompt[start - 1]?.role !== 'assistant') start--;
  const lines: string[] = [];
  for (const message of prompt.slice(start)) {
    if (message.role === 'user')
      lines.push(
        `user: ${message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')}`,
      );
    else if (message.role === 'tool')
      for (const part of message.content)
        if (part.type === 'tool-result') lines.push(...outputLines(part.toolName, part.output));
  }
  return lines;
}

export async function runOnAiSdk(
  scenario: Scenario,
  project: Project,
  surface: 'generateText' | 'streamText',
): Promise<HostOutcome> {
  const log: string[] = [];
  const ran: unknown[] = [];
  const reports: string[] = [];
  const calls: LanguageModelV4CallOptions[] = [];
  let next = 0;
  const answer = (options: LanguageModelV4CallOptions): Answer => {
    calls.push(options);
    const scripted = scenario.script[next++];
    if (scripted === undefined) throw new Error(`the script has no answer for call ${next}`);
    return scripted;
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => generated(answer(options)),
    doStream: async (options) => streamed(answer(options)),
  });
  const settings: string[] = [];
  if (scenario.ask !== undefined) {
    const path = join(project.dir, 'permissions.json');
    await writeFile(path, JSON.stringify({ permissions: { ask: scenario.ask } }));
    settings.push(path);
  }
  const hw = await createHookwire({
    cwd: project.dir,
    env: project.env,
    hooks: [scenario.hook(log)],
    settings,
    transcript: true,
    onReport: (report) => reports.push(report.text),
    ...(scenario.stopContinuationsPerTurn === undefined
      ? {}
      : { stopContinuationsPerTurn: scenario.stopContinuationsPerTurn }),
  });
  const controller = new AbortController();
  const options = {
    model,
    tools: tools(ran, () => {
      controller.abort('the user pressed Esc');
    }),
    prompt: 'Do the task',
    stopWhen: isStepCount(20),
    abortSignal: controller.signal,
  };
  try {
    if (surface === 'generateText') await hw.generateText(options);
    else await hw.streamText(options).consumeStream();
  } catch {
    // A hook's deny or stop, an abort, a failed call: the transcript says how the turn ended.
  } finally {
    await hw.close();
  }
  const { records } = await readTranscript(hw.transcriptPath ?? '');
  return {
    log,
    seen: calls.map((call) => seenOf(call.prompt)),
    end: turnEndOf(records),
    ran,
    reports,
  };
}
