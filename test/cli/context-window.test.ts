/**
 * Automatic compaction without `--max-context-tokens`, through the real `hookwire run` and the
 * real OpenAI adapter against a Chat Completions server on 127.0.0.1: the adapter declares the
 * model's known context window (`gpt-4`: 8192 tokens), the provider's usage says the prompt has
 * grown past it, and the loop compacts (PreCompact and PostCompact fire, the summarization
 * request reaches the server, the run finishes). An id the table does not know is not compacted
 * unless the `maxContextTokens` setting gives a budget.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completion } from '../fixtures/openai/chat-scenarios.ts';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.ts';
import {
  createSandbox,
  LOGGER_HOOK,
  readLog,
  runCli,
  settingsWith,
  writeHookScript,
  writeJson,
  type Sandbox,
} from './support.ts';

interface ChatBody {
  readonly messages: readonly { role: string; content: unknown }[];
}

const SUMMARY = 'The user asked for three echoes; all three ran.';

/**
 * The provider: three tool-calling answers (each shell call prints 4,000 characters) whose usage
 * reports a prompt growing by 3000 tokens a call, then a final answer; a summarization request
 * (its system message) gets the summary.
 */
function agentServer(server: LoopbackServer): void {
  let agentCalls = 0;
  server.replyWith((request) => {
    const body = request.body as ChatBody;
    if (JSON.stringify(body.messages[0]?.content).includes('You summarize'))
      return { type: 'json', body: completion({ content: SUMMARY }, 'stop') };
    agentCalls += 1;
    const usage = {
      prompt_tokens: 3000 * agentCalls,
      completion_tokens: 10,
      total_tokens: 3000 * agentCalls + 10,
    };
    if (agentCalls > 3)
      return { type: 'json', body: completion({ content: 'done' }, 'stop', usage) };
    return {
      type: 'json',
      body: completion(
        {
          tool_calls: [
            {
              id: `call_${agentCalls}`,
              type: 'function',
              function: {
                name: 'shell',
                // Output the size the usage implies (about 1,000 tokens), so the estimate of
                // what compaction keeps agrees with the provider's count.
                arguments: JSON.stringify({
                  command: `echo ${agentCalls}; head -c 4000 /dev/zero | tr '\\0' x`,
                }),
              },
            },
          ],
        },
        'tool_calls',
        usage,
      ),
    };
  });
}

async function runAgainst(
  server: LoopbackServer,
  sandbox: Sandbox,
  model: string,
): Promise<{ code: number | null; stderr: string; sessionId: string }> {
  const outcome = await runCli(
    [
      'run',
      'echo three times',
      '--model',
      model,
      '--base-url',
      server.baseURL,
      '--streaming',
      'off',
      '--cwd',
      sandbox.project,
      '--output-format',
      'json',
    ],
    { env: { ...sandbox.env, OPENAI_API_KEY: 'test-key' } },
  );
  const sessionId =
    outcome.stdout === '' ? '' : (JSON.parse(outcome.stdout) as { sessionId: string }).sessionId;
  return { code: outcome.code, stderr: outcome.stderr, sessionId };
}

async function compactionRecords(sandbox: Sandbox, sessionId: string): Promise<unknown[]> {
  const text = await readFile(
    join(sandbox.project, '.hookwire', 'sessions', `${sessionId}.jsonl`),
    'utf8',
  );
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string })
    .filter((record) => record.type === 'compaction');
}

describe("compaction from the model's known context window (hookwire run, OpenAI adapter)", () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function sandboxWithHooks(extra: Record<string, unknown> = {}) {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'compact.jsonl');
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
    const settings = settingsWith({ PreCompact: [logger], PostCompact: [logger] }) as object;
    await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
      ...settings,
      ...extra,
    });
    return { sandbox, log };
  }

  it('gpt-4 (8192 tokens) compacts once the prompt grows past it, with no flag', async () => {
    server = await startLoopbackServer();
    agentServer(server);
    const { sandbox, log } = await sandboxWithHooks();
    const run = await runAgainst(server, sandbox, 'openai:gpt-4');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const fired = await readLog(log);
    expect(fired.map((payload) => [payload['hook_event_name'], payload['trigger']])).toEqual([
      ['PreCompact', 'auto'],
      ['PostCompact', 'auto'],
    ]);
    expect(fired[1]).toMatchObject({ summary: SUMMARY });
    expect(fired[1]?.['tokens_before']).toBeGreaterThan(8192);
    // The summarization request went to the provider, between the third and the last agent call.
    const bodies = server.requests.map((request) => request.body as ChatBody);
    expect(bodies).toHaveLength(5);
    expect(JSON.stringify(bodies[3]?.messages[0])).toContain('You summarize');
    // The last agent request starts from the summary.
    expect(JSON.stringify(bodies[4]?.messages)).toContain(SUMMARY);
    expect(await compactionRecords(sandbox, run.sessionId)).toHaveLength(1);
  });

  it('an id the table does not know is not compacted, unless the maxContextTokens setting gives the budget', async () => {
    server = await startLoopbackServer();
    agentServer(server);
    const plain = await sandboxWithHooks();
    const unknown = await runAgainst(server, plain.sandbox, 'openai:my-fine-tune');
    expect(unknown.code).toBe(0);
    expect(await readLog(plain.log)).toEqual([]);
    expect(server.requests).toHaveLength(4);

    await server.close();
    server = await startLoopbackServer();
    agentServer(server);
    const budget = await sandboxWithHooks({ maxContextTokens: 8000 });
    const budgeted = await runAgainst(server, budget.sandbox, 'openai:my-fine-tune');
    expect(budgeted.stderr).toBe('');
    expect(budgeted.code).toBe(0);
    expect((await readLog(budget.log)).map((payload) => payload['hook_event_name'])).toEqual([
      'PreCompact',
      'PostCompact',
    ]);
    expect(await compactionRecords(budget.sandbox, budgeted.sessionId)).toHaveLength(1);
  });
});
