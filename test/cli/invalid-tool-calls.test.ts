/**
 * `hookwire run` and invalid tool calls (issue 11, finding 12): by default the error goes back to
 * the model as the tool's result, within `--max-invalid-tool-calls` per turn; past the budget, or
 * with 0, the run fails as before.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTranscript } from '../../src/loop/index.ts';
import { callTool, createSandbox, runCli, say, writeScript, type Sandbox } from './support.ts';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0))
    await rm(sandbox.root, { recursive: true, force: true });
});

async function run(turns: readonly unknown[], extra: readonly string[] = []) {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), turns);
  const outcome = await runCli(
    [
      'run',
      'tidy up',
      '--model',
      `scripted:${script}`,
      '--cwd',
      sandbox.project,
      '--output-format',
      'json',
      ...extra,
    ],
    { env: sandbox.env },
  );
  return { sandbox, outcome };
}

describe('hookwire run with invalid tool calls', () => {
  it('sends an unknown tool and bad arguments back to the model as tool errors, records them, and completes', async () => {
    const { outcome } = await run([
      callTool('call_1', 'delete_everything', {}),
      callTool('call_2', 'glob', { pattern: 7 }),
      callTool('call_3', 'glob', { pattern: '*' }),
      say('found nothing to tidy'),
    ]);
    expect(outcome.code, outcome.stderr).toBe(0);
    const result = JSON.parse(outcome.stdout) as { status: string; transcriptPath: string };
    expect(result.status).toBe('completed');
    expect(outcome.stderr).toContain(
      'the model made an invalid tool call (unknown_tool, call call_1): unknown tool "delete_everything"',
    );
    expect(outcome.stderr).toContain('(2 of 5 this turn, invalidToolCallsPerTurn)');
    const { records } = await readTranscript(result.transcriptPath);
    const errors = records.flatMap((record) =>
      record.type === 'message'
        ? record.message.blocks.flatMap((block) =>
            block.type === 'tool_response' && block.error !== undefined
              ? [[block.callId, block.error.slice(0, 40)]]
              : [],
          )
        : [],
    );
    expect(errors).toEqual([
      ['call_1', 'Invalid tool call (unknown_tool): unknow'],
      ['call_2', 'Invalid tool call (invalid_arguments): t'],
    ]);
  });

  it('fails (exit 1) on the first invalid call with --max-invalid-tool-calls 0, and past the budget', async () => {
    const none = await run(
      [callTool('call_1', 'nope', {}), say('unreached')],
      ['--max-invalid-tool-calls', '0'],
    );
    expect(none.outcome.code).toBe(1);
    expect(JSON.parse(none.outcome.stdout)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('invalidToolCallsPerTurn is 0') as unknown,
    });

    const spent = await run(
      [callTool('call_1', 'nope', {}), callTool('call_2', 'nope', {}), say('unreached')],
      ['--max-invalid-tool-calls', '1'],
    );
    expect(spent.outcome.code).toBe(1);
    expect(JSON.parse(spent.outcome.stdout)).toMatchObject({
      status: 'failed',
      modelCalls: 2,
      error: expect.stringContaining('invalidToolCallsPerTurn: 1') as unknown,
    });
  });

  it('exits 1 explaining the flag when --max-invalid-tool-calls is not a whole number', async () => {
    const { outcome } = await run([say('unreached')], ['--max-invalid-tool-calls', '-2']);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('--max-invalid-tool-calls must be a whole number (0 or more)');
  });
});
