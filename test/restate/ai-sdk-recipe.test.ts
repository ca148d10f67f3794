/**
 * The README's recipe for AI SDK apps on Restate, followed literally: an AI SDK `generateText`
 * agent inside a Restate service handler, its model wrapped with
 * `wrapLanguageModel({ model, middleware: [hw.middleware(), durableCalls(ctx)] })`
 * (`@restatedev/vercel-ai-middleware` journals each model call), its tools' `execute` each in a
 * `ctx.run` inside `hw.wrapTools`, and a hookwire guard (an in-process PreToolUse hook) that denies
 * one tool. The service is served from an HTTP/2 endpoint in this process, registered with the
 * real restate-server (from npm, on loopback in its own mount namespace). The attempt's connection
 * is cut while its second model call runs, so Restate retries the invocation: the retry replays
 * the journaled model call and tool calls and runs the rest. Skipped, saying why, where
 * restate-server cannot run (not root).
 */
import { appendFile, readFile } from 'node:fs/promises';
import type { Http2Server, ServerHttp2Session } from 'node:http2';
import { join } from 'node:path';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import * as restate from '@restatedev/restate-sdk';
import { durableCalls } from '@restatedev/vercel-ai-middleware';
import { generateText, isStepCount, jsonSchema, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHookwire } from '../../src/ai-sdk.ts';
import { ModelOutputAction, ToolCallAction, type AgentHook } from '../../src/index.ts';
import {
  answer,
  createAiSdkProject,
  textAnswer,
  toolOutputsOf,
  type AiSdkProject,
} from '../ai-sdk/support.ts';
import {
  journalOf,
  restateUnavailable,
  serveInProcess,
  startRestateServer,
  type RestateServer,
} from '../support/restate-cluster.ts';

const unavailable = restateUnavailable();
if (unavailable !== undefined) console.warn(`AI SDK recipe test skipped: ${unavailable}`);

const GUARD_REASON = 'guard: nothing is removed here';

describe.skipIf(unavailable !== undefined)('the AI SDK + Restate middleware recipe', () => {
  let project: AiSdkProject;
  let server: RestateServer;
  let endpoint: Http2Server;
  const connections = new Set<ServerHttp2Session>();
  /** Ends the model call the first attempt was cut off in (so that attempt unwinds). */
  let releaseCutCall: (() => void) | undefined;

  beforeAll(async () => {
    project = await createAiSdkProject();
    server = await startRestateServer(join(project.dir, 'restate'));
  }, 120_000);

  afterAll(async () => {
    releaseCutCall?.();
    await server.stop();
    await new Promise((done) => endpoint.close(done));
    for (const connection of connections) connection.destroy();
    await project.close();
  });

  it('a retried attempt replays the journaled model call and tool calls: each write ran once, the guard denied again', async () => {
    const effects = join(project.dir, 'effects.txt');
    const attempts: number[] = [];
    const denied: string[] = [];
    /** The finish reason of each answer AfterModel saw. */
    const answers: string[] = [];
    const removed: unknown[] = [];
    const modelCalls: LanguageModelV4CallOptions[] = [];
    // The model: two writes and a remove, then (cut off on the first attempt) the answer.
    const model = new MockLanguageModelV4({
      doGenerate: async (options) => {
        modelCalls.push(options);
        if (modelCalls.length === 1)
          return answer(
            [
              {
                type: 'tool-call',
                toolCallId: 'w1',
                toolName: 'write',
                input: JSON.stringify({ line: 'first' }),
              },
              {
                type: 'tool-call',
                toolCallId: 'r1',
                toolName: 'remove',
                input: JSON.stringify({ path: 'important.txt' }),
              },
              {
                type: 'tool-call',
                toolCallId: 'w2',
                toolName: 'write',
                input: JSON.stringify({ line: 'second' }),
              },
            ],
            'tool-calls',
          );
        if (modelCalls.length === 2) {
          // The worker's connection drops mid-call, as when its process dies: Restate retries.
          for (const connection of connections) connection.destroy();
          return new Promise((_resolve, reject) => {
            releaseCutCall = () => {
              reject(new Error('the attempt was cut off'));
            };
          });
        }
        return textAnswer('done');
      },
    });
    const guard: AgentHook = {
      name: 'guard',
      onToolCall: (_context, event) => {
        if (event.toolName !== 'remove') return ToolCallAction.run();
        denied.push(event.toolCallId);
        return ToolCallAction.skip(GUARD_REASON);
      },
      onModelOutput: (_context, event) => {
        answers.push(String(event.response.finishReason));
        return ModelOutputAction.continue();
      },
    };
    const lineSchema = jsonSchema<{ line: string }>({
      type: 'object',
      properties: { line: { type: 'string' } },
      required: ['line'],
      additionalProperties: false,
    });
    const pathSchema = jsonSchema<{ path: string }>({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
      additionalProperties: false,
    });

    const agent = restate.service({
      name: 'recipe-agent',
      handlers: {
        run: async (ctx: restate.Context, input: { prompt: string }): Promise<string> => {
          attempts.push(attempts.length + 1);
          const hw = await createHookwire({ cwd: project.dir, env: project.env, hooks: [guard] });
          try {
            const tools = hw.wrapTools({
              write: tool({
                inputSchema: lineSchema,
                execute: ({ line }, { toolCallId }) =>
                  ctx.run(`write ${toolCallId}`, async () => {
                    await appendFile(effects, `${line}\n`);
                    return { written: line };
                  }),
              }),
              remove: tool({
                inputSchema: pathSchema,
                execute: ({ path }, { toolCallId }) =>
                  ctx.run(`remove ${toolCallId}`, () => {
                    removed.push(path);
                    return { removed: path };
                  }),
              }),
            });
            const result = await generateText({
              model: wrapLanguageModel({ model, middleware: [hw.middleware(), durableCalls(ctx)] }),
              tools,
              prompt: input.prompt,
              stopWhen: isStepCount(4),
              // One journaled call at a time, in the order the model gave them: Restate's SDK
              // awaits one journal promise at a time, and a replay must issue them in order.
              toolCallConcurrency: 1,
            });
            return result.text;
          } finally {
            await hw.close();
          }
        },
      },
    });
    endpoint = await serveInProcess(server.admin, [agent], (connection) => {
      connections.add(connection);
      connection.once('close', () => connections.delete(connection));
    });

    const response = await fetch(`${server.ingress}/recipe-agent/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'tidy up' }),
    });
    expect(await response.json()).toBe('done');

    // Two attempts; the model was called once for the first step (the retry replayed it), once
    // when the connection was cut, and once for the answer.
    expect(attempts).toEqual([1, 2]);
    expect(modelCalls).toHaveLength(3);
    // Each write's effect once: the retry took both results from the journal.
    expect((await readFile(effects, 'utf8')).split('\n').filter(Boolean)).toEqual([
      'first',
      'second',
    ]);
    // The guard ran on each attempt (hooks are not journaled this way) and denied both times;
    // the remove never ran, and the answer's request carries the denial.
    expect(denied).toEqual(['r1', 'r1']);
    // hookwire's middleware is outside Restate's: AfterModel saw the first answer on each attempt
    // (the retry's from the journal), and the last one.
    expect(answers).toEqual(['tool_calls', 'tool_calls', 'stop']);
    expect(removed).toEqual([]);
    expect(JSON.stringify(toolOutputsOf(modelCalls[2]!))).toContain(GUARD_REASON);
    const journal = await journalOf(server.admin, 'recipe-agent/run');
    expect(
      journal.filter((entry) => entry.type === 'Command: Run').map((entry) => entry.name),
    ).toEqual(['calling mock-provider', 'write w1', 'write w2', 'calling mock-provider']);
  }, 120_000);
});
